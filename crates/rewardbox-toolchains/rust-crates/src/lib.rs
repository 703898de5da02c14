//! Empty: this package only names the crates candidates may use.
