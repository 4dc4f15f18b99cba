"""The global seed: ``set_seed`` / ``get_seed`` (kept in this rank's Java Session)."""
from mindspore import _checkparam as Validator
from mindspore._host import session


def set_seed(seed):
    """Sets the global seed used by initializers and random ops of this interpreter."""
    if not isinstance(seed, int):
        raise TypeError("The argument 'seed' must be type of int, but got {}.".format(type(seed)))
    Validator.check_non_negative_int(seed, "seed", "global_seed")
    if seed > 2**32 - 1:
        # MindSpore seeds numpy too, whose bound and text this is.
        raise ValueError("Seed must be between 0 and 2**32 - 1")
    session().setSeed(seed)
    from mindspore.common.initializer import _reseed  # pylint: disable=import-outside-toplevel
    _reseed(seed)


def get_seed():
    """The global seed, or None when none was set."""
    return session().seed()
