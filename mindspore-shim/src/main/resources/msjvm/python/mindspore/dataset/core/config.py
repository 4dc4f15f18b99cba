"""``mindspore.dataset.config``: the pipeline seed of this interpreter.

``set_seed`` here or ``mindspore.set_seed`` fixes every shuffle; without either the seed is
MindSpore's default 5489. State is a module attribute of the interpreter (one per rank).
"""
__all__ = ["set_seed", "get_seed"]

_DEFAULT_SEED = 5489
_state = {"seed": None}


def set_seed(seed):
    """Sets the seed of every random dataset operation (shuffles)."""
    if not isinstance(seed, int) or isinstance(seed, bool):
        raise TypeError("seed isn't of type int.")
    if seed < 0 or seed > 2 ** 32 - 1:
        raise ValueError("seed given is not within the required range [0, UINT32_MAX(4294967295)].")
    _state["seed"] = seed


def get_seed():
    """The dataset seed: ``set_seed``'s value, else ``mindspore.get_seed()``, else 5489."""
    if _state["seed"] is not None:
        return _state["seed"]
    from mindspore.common.seed import get_seed as global_seed  # pylint: disable=import-outside-toplevel
    seed = global_seed()
    return _DEFAULT_SEED if seed is None else seed
