"""Communication state of this interpreter and the checks behind ``mindspore.communication``.

Behaviour follows MindSpore's ``mindspore/communication/_comm_helper.py``: world group names,
``GlobalComm``, ``Backend``, the rules for calls made before ``init``. The communicator itself is
the job's in-JVM communicator, reached through this rank's Java ``Session``.
"""
import os
from functools import wraps

from mindspore import log as logger
from mindspore._host import session

HCCL_WORLD_COMM_GROUP = "hccl_world_group"
NCCL_WORLD_COMM_GROUP = "nccl_world_group"
MCCL_WORLD_COMM_GROUP = "mccl_world_group"

DEVICE_TO_BACKEND = {
    "Ascend": "hccl",
    "GPU": "nccl",
    "CPU": "mccl",
}


class Backend:
    """Names of the communication backends; ``Backend("nccl")`` checks and returns the name."""
    UNDEFINED = "undefined"
    HCCL = "hccl"
    NCCL = "nccl"
    MCCL = "mccl"

    def __new__(cls, name):
        if not isinstance(name, str):
            raise TypeError("For 'Backend', the class variable 'name' must be a string, "
                            "but got the type : {}".format(type(name)))
        value = getattr(Backend, name.upper(), Backend.UNDEFINED)
        if value == Backend.UNDEFINED:
            raise ValueError("For 'Backend', the class variable 'name' {} is not supported, "
                             "please use hccl or nccl.".format(name))
        return value


DEFAULT_BACKEND = Backend("hccl")


class GlobalComm:
    """World communication information of this interpreter (per rank, as MindSpore's is per process)."""
    BACKEND = DEFAULT_BACKEND
    WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP
    INITED = False
    CHECK_ENVS = True


class _ExistingGroup:
    """Groups created by ``create_group``: name -> rank list, and name -> {world rank: group rank}."""
    ITEMS = {}
    GROUP_RANKS = {}


def _is_role_sched():
    return os.getenv("MS_ROLE") == "MS_SCHED"


def _check_mpi_envs():
    return bool(os.getenv("OMPI_COMMAND") and os.getenv("PMIX_RANK"))


_STANDALONE_OK = ("_get_rank_helper", "_get_local_rank_helper", "_get_size_helper", "_get_local_size_helper")


def check_parameter_available(func):
    """Helpers other than rank/size queries need ``init()`` first; ``group`` must be a str or None."""

    @wraps(func)
    def wrapper(*args, **kwargs):
        if not GlobalComm.INITED and func.__name__ not in _STANDALONE_OK:
            raise RuntimeError("Distributed Communication has not been inited."
                               "You can't invoke this interface yet. Please call `init()` method first.")
        group = kwargs.get("group")
        if group is not None and not isinstance(group, str):
            raise TypeError("The parameter 'group' should be str or None, "
                            "but got the type : {}".format(type(group)))
        return func(*args, **kwargs)

    return wrapper


def _comm():
    return session().comm()


def _joined():
    """Whether this rank joined a communicator: ``init()`` ran. MindSpore's own tests set
    ``GlobalComm.INITED`` by hand without one; the helpers then answer as before ``init()``."""
    return GlobalComm.INITED and session().commInited()


@check_parameter_available
def _get_rank_helper(group):
    if _is_role_sched():
        return 0
    if not _joined():
        logger.info("You are invoking this interface without calling `init` method."
                    "Return 'RANK_ID' env value instead. If 'RANK_ID' is not set, return 0 as default value.")
        return int(os.getenv("RANK_ID", "0"))
    return _comm().groupRank(group)


@check_parameter_available
def _get_local_rank_helper(group):
    if _is_role_sched():
        return 0
    if not _joined():
        return int(os.getenv("LOCAL_RANK", "0"))
    return session().localRank(group)


@check_parameter_available
def _get_size_helper(group):
    if _is_role_sched():
        return 1
    if not _joined():
        logger.info("You are invoking this interface without calling `init` method."
                    "Return 'RANK_SIZE' env value instead. If 'RANK_SIZE' is not set, return 1 as default value.")
        return int(os.getenv("RANK_SIZE", "1"))
    return _comm().groupSize(group)


@check_parameter_available
def _get_local_size_helper(group):
    if _is_role_sched():
        return 1
    if not _joined():
        return int(os.getenv("LOCAL_RANK_SIZE", "1"))
    return session().localGroupSize(group)


@check_parameter_available
def _get_world_rank_from_group_rank_helper(group, group_rank_id):
    if not isinstance(group_rank_id, int):
        raise TypeError("For 'get_world_rank_from_group_rank', the argument 'group_rank_id' must be"
                        " type of int, but got 'group_rank_id' type : {}.".format(type(group_rank_id)))
    return _comm().getWorldRankFromGroupRank(group, group_rank_id)


@check_parameter_available
def _get_group_rank_from_world_rank_helper(world_rank_id, group):
    if not isinstance(world_rank_id, int):
        raise TypeError("For 'get_group_rank_from_world_rank', the argument 'world_rank_id' must be type of int, "
                        "but got 'world_rank_id' type : {}.".format(type(world_rank_id)))
    return _comm().getGroupRankFromWorldRank(world_rank_id, group)


@check_parameter_available
def _get_group_ranks(group):
    return _comm().groupRanks(group)


@check_parameter_available
def _create_group_helper(group, rank_ids, options=None):
    if group in _ExistingGroup.ITEMS:
        if rank_ids != _ExistingGroup.ITEMS.get(group):
            raise ValueError("The group {} has been created, the rank_list is {}, "
                             "but current rank_list for the group is {}".
                             format(group, _ExistingGroup.ITEMS[group], rank_ids))
        logger.warning("%r group has existed.", group)
        return
    if not isinstance(rank_ids, list):
        raise TypeError("For 'create_group', the argument 'rank_ids' must be type of list, "
                        "but got 'rank_ids' type : {}.".format(type(rank_ids)))
    if len(rank_ids) < 1:
        raise ValueError("For 'create_group', the argument 'rank_ids' size should be greater than 1, "
                         "but got 'rank_ids' size : {}.".format(len(rank_ids)))
    if len(rank_ids) - len(set(rank_ids)) > 0:
        raise ValueError("List rank_ids in Group {} has duplicate data!".format(group))
    if options is not None and type(options).__name__ != "GroupOptions":
        raise TypeError("For 'create_group', the argument 'options' must be type of GroupOptions, "
                        "but got 'options' type : {}.".format(type(options)))
    _comm().createGroup(group, list(rank_ids))
    _ExistingGroup.ITEMS[group] = rank_ids
    _ExistingGroup.GROUP_RANKS[group] = {world: local for local, world in enumerate(sorted(rank_ids))}


@check_parameter_available
def _destroy_group_helper(group):
    if group == GlobalComm.WORLD_COMM_GROUP:
        raise ValueError("The world_group does not support destruction.")
    _comm().destroyGroup(group)
    _ExistingGroup.ITEMS.pop(group, None)
    _ExistingGroup.GROUP_RANKS.pop(group, None)
