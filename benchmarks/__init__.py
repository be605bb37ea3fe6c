"""The benchmark harness; benchmarks/README.md says how to run each part."""


def count(text: str) -> int:
    """A command line's count of runs or calls: a whole number, at least 1."""
    number = int(text)
    if number < 1:
        raise ValueError(text)
    return number
