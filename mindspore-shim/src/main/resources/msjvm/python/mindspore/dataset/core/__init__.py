"""Configuration and argument checks shared by ``mindspore.dataset``."""
