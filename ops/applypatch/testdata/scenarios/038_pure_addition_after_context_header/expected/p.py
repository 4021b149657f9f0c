def f():
    """Docstring."""
    pass
