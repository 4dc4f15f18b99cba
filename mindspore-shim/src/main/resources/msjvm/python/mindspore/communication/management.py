"""``mindspore.communication.management``: init, ranks, sizes and groups.

Checks and messages follow MindSpore's ``mindspore/communication/management.py``. Under
``bin/msrun`` every backend name (``hccl``, ``nccl``, ``mccl``) is served by the job's in-JVM
communicator, so scripts written for Ascend or GPU clusters run here unmodified.
"""
import os

from mindspore import context
from mindspore._host import session
from mindspore.communication._comm_helper import (DEVICE_TO_BACKEND, HCCL_WORLD_COMM_GROUP,
                                                  MCCL_WORLD_COMM_GROUP, NCCL_WORLD_COMM_GROUP, Backend,
                                                  GlobalComm, _check_mpi_envs, _create_group_helper,
                                                  _destroy_group_helper, _get_group_rank_from_world_rank_helper,
                                                  _get_group_ranks, _get_local_rank_helper,
                                                  _get_local_size_helper, _get_rank_helper, _get_size_helper,
                                                  _get_world_rank_from_group_rank_helper)

__all__ = ["init", "release", "get_rank", "get_local_rank", "get_group_size",
           "get_local_rank_size", "get_world_rank_from_group_rank",
           "get_group_rank_from_world_rank", "create_group", "destroy_group", "get_process_group_ranks",
           "HCCL_WORLD_COMM_GROUP", "NCCL_WORLD_COMM_GROUP", "MCCL_WORLD_COMM_GROUP"]

DEFAULT_WORLD_COMM_GROUP = HCCL_WORLD_COMM_GROUP


def _set_rank_from_mpi():
    """Copies OpenMPI's rank variables into MindSpore's, as MindSpore does on import."""
    rank_id = os.getenv("OMPI_COMM_WORLD_RANK")
    device_id = os.getenv("OMPI_COMM_WORLD_LOCAL_RANK")
    rank_size = os.getenv("OMPI_COMM_WORLD_SIZE")
    if rank_id:
        os.environ["RANK_ID"] = rank_id
    if device_id:
        os.environ["DEVICE_ID"] = device_id
    if rank_size:
        os.environ["RANK_SIZE"] = rank_size


_set_rank_from_mpi()


def _get_group(group):
    if group == DEFAULT_WORLD_COMM_GROUP:
        return GlobalComm.WORLD_COMM_GROUP
    return group


def _host_distribute():
    return os.getenv("MS_ROLE") or _check_mpi_envs()


def _check_parallel_envs():
    if not GlobalComm.CHECK_ENVS:
        return
    if os.getenv("MS_SIMULATION_LEVEL"):
        return
    if os.getenv("RANK_ID") is None:
        raise RuntimeError("Environment variables RANK_ID has not been exported, please export variables 'RANK_ID'.")
    try:
        int(os.getenv("RANK_ID"))
    except ValueError as err:
        raise RuntimeError("Environment variables RANK_ID should be number, but got the type : {}"
                           .format(type(os.getenv("RANK_ID")))) from err
    if os.getenv("MINDSPORE_HCCL_CONFIG_PATH") is None and os.getenv("RANK_TABLE_FILE") is None \
            and not os.getenv("HELP_CLUSTER"):
        raise RuntimeError("Get hccl rank_table_file failed, "
                           "please export MINDSPORE_HCCL_CONFIG_PATH or RANK_TABLE_FILE.")


def _init_simulated(backend_name):
    """``init()`` of a dry run (``MS_SIMULATION_LEVEL``, as ``msrun --sim_level`` sets it): this
    process is rank ``RANK_ID`` of a cluster of ``RANK_SIZE`` that is not there. Groups are created
    and checked as usual; collectives move nothing; compiled graphs are planned for this rank and,
    below level 3, run no kernel (their results are zeros; level 1 prints this rank's memory); at level
    3 this rank's kernels run and each step's time is predicted (measured compute plus the
    collectives timed on ``MSJVM_SIM_LINK``'s links).
    MindSpore's CPU wheel refuses a dry run ("Dryrun is not supported on CPU device"); here it
    works on any device target."""
    worlds = {"hccl": HCCL_WORLD_COMM_GROUP, "nccl": NCCL_WORLD_COMM_GROUP, "mccl": MCCL_WORLD_COMM_GROUP}
    if backend_name not in worlds:
        raise RuntimeError("For 'init', the argument 'backend_name' must be one of 'hccl', 'nccl' and 'mccl', "
                           "but got 'backend_name' : {}".format(backend_name))
    level = os.getenv("MS_SIMULATION_LEVEL").strip()
    try:
        level, size, rank = int(level), int(os.getenv("RANK_SIZE", "1")), int(os.getenv("RANK_ID", "0"))
    except ValueError as err:
        raise RuntimeError("For a dry run, MS_SIMULATION_LEVEL, RANK_SIZE and RANK_ID must be integers, but got "
                           f"{os.getenv('MS_SIMULATION_LEVEL')!r}, {os.getenv('RANK_SIZE')!r} and "
                           f"{os.getenv('RANK_ID')!r}.") from err
    world = worlds[backend_name]
    # MSJVM_SIM_LINK ("alpha_us=<us>,busbw_gbps=<GB/s>"): the cluster's links, which time the
    # collectives a level-3 step is predicted with (default: this machine's in-JVM communicator).
    session().commSimulate(world, level, size, rank, os.getenv("MSJVM_SIM_LINK"))
    GlobalComm.BACKEND = Backend(backend_name)
    GlobalComm.WORLD_COMM_GROUP = world
    GlobalComm.INITED = True
    os.environ["RANK_ID"] = str(rank)
    os.environ["RANK_SIZE"] = str(size)


def init(backend_name=None):
    """Joins this rank to the job's communicator (``hccl``/``nccl``/``mccl``, or from device_target)."""
    device_target = context.get_context("device_target")
    if backend_name is None:
        if device_target == "Ascend":
            backend_name = "hccl"
        elif device_target == "GPU":
            backend_name = "nccl"
        elif device_target == "CPU":
            backend_name = "mccl"
        else:
            raise RuntimeError("For 'set_context', the argument 'device_target' {} is not supported in "
                               "parallel initialization, please use Ascend, GPU or CPU.".format(device_target))
    if not isinstance(backend_name, str):
        raise TypeError("For 'init', the argument 'backend_name' must be a string, "
                        "but got the type : {}".format(type(backend_name)))
    if os.getenv("MS_ROLE") == "MS_SCHED":
        backend_name = "mccl"
    if os.getenv("MS_SIMULATION_LEVEL", "").strip():
        _init_simulated(backend_name)
        return
    # Under a launcher every backend name is served by the job's in-JVM communicator, whatever the
    # device target: a script written for an Ascend or GPU cluster runs unmodified on the CPU.
    launched = bool(_host_distribute())
    if backend_name == "hccl":
        if device_target != "Ascend" and not launched:
            raise RuntimeError("For 'init', the argument 'backend_name' should be '{}' to init '{}', "
                               "but got 'hccl'.".format(DEVICE_TO_BACKEND[device_target], device_target))
        if not launched:
            _check_parallel_envs()
        world = HCCL_WORLD_COMM_GROUP
    elif backend_name == "nccl":
        if device_target != "GPU" and not launched:
            raise RuntimeError("For 'init', the argument 'backend_name' should be '{}' to init '{}', "
                               "but got 'nccl'.".format(DEVICE_TO_BACKEND[device_target], device_target))
        world = NCCL_WORLD_COMM_GROUP
    elif backend_name == "mccl":
        world = MCCL_WORLD_COMM_GROUP
    else:
        raise RuntimeError("For 'init', the argument 'backend_name' must be one of 'hccl', 'nccl' and 'mccl', "
                           "but got 'backend_name' : {}".format(backend_name))
    if backend_name in ("nccl", "mccl") and not launched:
        # MindSpore's dynamic cluster (init_cluster) needs a launcher's environment.
        raise RuntimeError("Maybe you are trying to call 'mindspore.communication.init()' without using 'mpirun', "
                           "which will make MindSpore load several environment variables and check their "
                           "validation. Please use 'mpirun' to launch this process to fix this issue, or refer to "
                           "this link if you want to run distributed training using 'msrun'")
    session().commInit(world)
    GlobalComm.BACKEND = Backend(backend_name)
    GlobalComm.WORLD_COMM_GROUP = world
    GlobalComm.INITED = True
    if os.getenv("RANK_TABLE_FILE"):
        os.environ["RANK_ID"] = str(get_rank())
        os.environ["DEVICE_ID"] = str(context.get_context("device_id"))
        if os.getenv("RANK_SIZE") is None:
            os.environ["RANK_SIZE"] = str(get_group_size())


def release():
    """Leaves the communicator (after this, rank queries fall back to the environment)."""
    if GlobalComm.INITED:
        session().commRelease()
    GlobalComm.INITED = False


def _check_group_str(func_name, group):
    if not isinstance(group, str):
        raise TypeError("For '{}', the argument 'group' must be type of string, "
                        "but got 'group' type : {}.".format(func_name, type(group)))


def get_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """The rank of this process in ``group`` (before ``init``: ``RANK_ID``, default 0)."""
    _check_group_str("get_rank", group)
    return _get_rank_helper(group=_get_group(group))


def get_local_rank(group=GlobalComm.WORLD_COMM_GROUP):
    """The rank of this process among the ranks of its node."""
    _check_group_str("get_local_rank", group)
    return _get_local_rank_helper(group=_get_group(group))


def get_group_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of ranks in ``group`` (before ``init``: ``RANK_SIZE``, default 1)."""
    _check_group_str("get_group_size", group)
    return _get_size_helper(group=_get_group(group))


def get_local_rank_size(group=GlobalComm.WORLD_COMM_GROUP):
    """The number of ranks of ``group`` on this node."""
    _check_group_str("get_local_rank_size", group)
    return _get_local_size_helper(group=_get_group(group))


def get_world_rank_from_group_rank(group, group_rank_id):
    """The world rank of rank ``group_rank_id`` of ``group``."""
    _check_group_str("get_world_rank_from_group_rank", group)
    return _get_world_rank_from_group_rank_helper(group=group, group_rank_id=group_rank_id)


def get_group_rank_from_world_rank(world_rank_id, group):
    """The rank in ``group`` of world rank ``world_rank_id``."""
    _check_group_str("get_group_rank_from_world_rank", group)
    return _get_group_rank_from_world_rank_helper(world_rank_id=world_rank_id, group=group)


def create_group(group, rank_ids, options=None):
    """Creates a communication group of the given world ranks (call it on every member)."""
    _check_group_str("create_group", group)
    _create_group_helper(group, rank_ids, options)


def destroy_group(group):
    """Destroys a group made by ``create_group``."""
    _check_group_str("destroy_group", group)
    _destroy_group_helper(group)


def get_process_group_ranks(group=GlobalComm.WORLD_COMM_GROUP):
    """The world ranks of ``group``, in group-rank order."""
    return _get_group_ranks(group=_get_group(group))
