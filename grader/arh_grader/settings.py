"""A run's settings, read once from a problem's autoresearch.toml into a
frozen object; a command-line option makes a new one with a field replaced.

    settings = Settings.read("autoresearch.toml")      # its [grader] table
    settings = settings.replace(instance_timeout_s=30)  # --instance-timeout 30
    settings.instance_timeout_s                         # 30.0

A table without one of the fields, with a field it does not know, or with
a value that is not a number above 0 is refused with SettingsError naming
the file, the key and the value.
"""

import dataclasses
import math


class SettingsError(ValueError):
    """A settings file that cannot be used; the message names the file and key."""


@dataclasses.dataclass(frozen=True)
class Settings:
    """The deadlines of a run, in seconds."""

    instance_timeout_s: float       # one instance, all its oracle calls included
    run_timeout_s: float            # the whole run
    worker_start_timeout_s: float   # the worker's first answer to /health

    def __post_init__(self):
        for field in dataclasses.fields(self):
            value = getattr(self, field.name)
            if type(value) not in (int, float) or not (math.isfinite(value) and value > 0):
                raise SettingsError("%s must be a number of seconds above 0, got %r"
                                    % (field.name, value))
            object.__setattr__(self, field.name, float(value))

    def replace(self, **changes):
        """A copy with the fields `changes` names replaced (None keeps a field)."""
        return dataclasses.replace(self, **{k: v for k, v in changes.items() if v is not None})

    @classmethod
    def read(cls, path, *, table="grader"):
        """The settings in table `table` of the TOML file at `path`."""
        values = read_table(path, table)
        names = [field.name for field in dataclasses.fields(cls)]
        unknown = sorted(set(values) - set(names))
        missing = [name for name in names if name not in values]
        if unknown or missing:
            raise SettingsError("%s [%s]: %s" % (path, table, "; ".join(
                ["unknown key %r" % k for k in unknown] + ["no %r" % k for k in missing])))
        try:
            return cls(**values)
        except SettingsError as e:
            raise SettingsError("%s [%s]: %s" % (path, table, e)) from None


def read_table(path, table):
    """Table `table` of the TOML file at `path`, as a dict; SettingsError
    when the file cannot be read or has no such table."""
    import tomllib         # here, so that Python 3.10 reaches the SDK's version check
    try:
        with open(path, "rb") as f:
            tables = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise SettingsError("cannot read %s: %s" % (path, e)) from None
    if not isinstance(tables.get(table), dict):
        raise SettingsError("%s has no [%s] table" % (path, table))
    return tables[table]
