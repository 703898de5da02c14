//! What a report says about the run besides the results: where the inputs came from, how long
//! scoring took, on how many workers.

/// The run behind an [`crate::Evaluation`].
#[derive(Debug, Clone, PartialEq)]
pub struct RunInfo {
    /// The problems file, as given.
    pub problems_file: String,
    /// The samples file, as given (`None`: the tasks' own completions).
    pub samples_file: Option<String>,
    /// Parallel scorers.
    pub jobs: usize,
    /// Wall time of the scoring, in seconds (compilation excluded).
    pub seconds: f64,
    /// When the report was made, `YYYY-MM-DD HH:MM UTC`.
    pub generated: String,
}

impl RunInfo {
    /// Samples scored per second.
    pub fn rate(&self, samples: u64) -> f64 {
        samples as f64 / self.seconds.max(1e-9)
    }

    /// The report's title: the samples file's name, else the problems file's.
    pub fn title(&self) -> String {
        let path = self.samples_file.as_deref().unwrap_or(&self.problems_file);
        std::path::Path::new(path)
            .file_name()
            .map_or_else(|| path.to_string(), |n| n.to_string_lossy().into_owned())
    }
}

/// `YYYY-MM-DD HH:MM UTC` for a time given in seconds since the Unix epoch.
pub fn utc_timestamp(unix_seconds: u64) -> String {
    let days = (unix_seconds / 86_400) as i64;
    let seconds_of_day = unix_seconds % 86_400;
    // Howard Hinnant's days-from-civil, inverted.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02} UTC",
        seconds_of_day / 3_600,
        seconds_of_day % 3_600 / 60
    )
}

/// A percentage with one decimal.
pub fn percent(value: f64) -> String {
    format!("{:.1}%", value * 100.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_are_utc_calendar_dates() {
        assert_eq!(utc_timestamp(0), "1970-01-01 00:00 UTC");
        assert_eq!(utc_timestamp(951_782_400), "2000-02-29 00:00 UTC");
        assert_eq!(utc_timestamp(1_795_309_200), "2026-11-22 01:00 UTC");
    }
}
