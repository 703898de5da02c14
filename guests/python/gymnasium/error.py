"""gymnasium's exceptions."""


class Error(Exception):
    """The base class of gymnasium's errors."""


class UnregisteredEnv(Error):
    """`make` was given an id nobody registered."""


class NameNotFound(UnregisteredEnv):
    """`make` was given an unknown name."""


class DependencyNotInstalled(Error):
    """A dependency the environment needs is not installed."""


class InvalidAction(Error):
    """An action outside the action space."""


class ResetNeeded(Error):
    """The environment must be reset before this call."""
