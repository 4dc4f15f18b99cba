"""``mindspore.parallel``: algorithm parameters and (with later engine work) parallel cells."""
from mindspore.parallel.algo_parameter_config import (get_algo_parameters, reset_algo_parameters,
                                                      set_algo_parameters)

__all__ = ["set_algo_parameters", "get_algo_parameters", "reset_algo_parameters"]
