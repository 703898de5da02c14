//! Which interpreter runs a Python program on stdin/stdout: CPython, Monty (the fast tier), or
//! Monty first with CPython behind it. A verifier names the engine a task asks for in the language
//! it passes the host (`python@monty`); a plain `python` leaves it to the host's default.

/// An interpreter for Python programs run on stdin/stdout.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum PythonEngine {
    /// Monty first; a run that does not end normally there (an exception, a construct or module
    /// outside Monty's subset, a limit) runs again in CPython, whose outcome is the one reported.
    Auto,
    /// CPython 3.14, the reference: every program, every module of its standard library.
    CPython,
    /// Monty alone: what it cannot run ends with an error (`unsupported` when it lacks a feature).
    Monty,
}

impl PythonEngine {
    /// Every engine.
    pub const ALL: [PythonEngine; 3] = [
        PythonEngine::Auto,
        PythonEngine::CPython,
        PythonEngine::Monty,
    ];

    /// The engine `name` names (`auto`, `cpython` or `monty`, case and spaces ignored).
    pub fn parse(name: &str) -> Option<PythonEngine> {
        let wanted = name.trim().to_ascii_lowercase();
        PythonEngine::ALL.into_iter().find(|e| e.name() == wanted)
    }

    /// The engine's name: `auto`, `cpython` or `monty`.
    pub fn name(self) -> &'static str {
        match self {
            PythonEngine::Auto => "auto",
            PythonEngine::CPython => "cpython",
            PythonEngine::Monty => "monty",
        }
    }

    /// The language name that asks the host for this engine: `python@<engine>`.
    pub fn language(self) -> String {
        format!("python{SEPARATOR}{}", self.name())
    }
}

/// The first line of a program the host hands Monty under `auto`: the Monty runner then first
/// screens it for constructs where Monty's outcome would differ from CPython's (the iteration
/// order of sets, `round` to a number of digits, `hash` and `id`, the `random` and `time`
/// modules) and hands those to CPython. Not a Python comment anyone writes: a program starting
/// with it is screened, nothing more.
pub const AUTO_MARKER: &str = "#rewardbox:python-engine=auto\n";

/// Between a language and its engine in a language name.
const SEPARATOR: char = '@';

/// Splits `python@monty` into `python` and its engine; a name without `@` has none. `Err` when
/// the part after `@` names no engine.
pub fn split_engine(name: &str) -> Result<(&str, Option<PythonEngine>), String> {
    match name.split_once(SEPARATOR) {
        None => Ok((name, None)),
        Some((language, engine)) => match PythonEngine::parse(engine) {
            Some(engine) => Ok((language, Some(engine))),
            None => Err(format!(
                "{engine:?} is not a Python engine (use {})",
                PythonEngine::ALL.map(PythonEngine::name).join(", ")
            )),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_split() {
        for engine in PythonEngine::ALL {
            assert_eq!(PythonEngine::parse(engine.name()), Some(engine));
            assert_eq!(
                split_engine(&engine.language()),
                Ok(("python", Some(engine)))
            );
        }
        assert_eq!(PythonEngine::parse(" Monty "), Some(PythonEngine::Monty));
        assert_eq!(PythonEngine::parse("pypy"), None);
        assert_eq!(split_engine("python"), Ok(("python", None)));
        assert!(
            split_engine("python@pypy")
                .unwrap_err()
                .contains("auto, cpython, monty")
        );
    }
}
