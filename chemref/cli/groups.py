"""The command groups of ``chemref``: typer groups that list their commands from :mod:`chemref.cli.registry` and
import a command's module only when that command runs or its own ``--help`` is asked for (click's "lazily
loading subcommands" pattern). A group's ``--help`` lists each command by its summary in the registry, without
importing it.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any, ClassVar

import typer
import typer.core
import typer.main

from chemref.cli.commands import prepare
from chemref.cli.registry import Entry, children

__all__ = ["LazyGroup", "lazy_group", "build_command", "prepare_tree"]


class _Listed(typer.core.TyperCommand):
    """A command not imported yet, as its group's ``--help`` lists it: its name and summary (``entry``)."""

    def __init__(self, name: str, entry: Entry) -> None:
        super().__init__(name=name, help=entry.summary)
        self.entry = entry


class _Commands(dict):
    """A group's commands by name, in listing order: one not built yet is held as its summary (:class:`_Listed`)
    and built, its module imported, when it is read (``[name]``, ``get``, ``values``, ``items``); its name alone
    (``in``, iteration, ``keys``) imports nothing. Once ``prepared`` (:func:`prepare_tree`), what is built is
    prepared too."""

    prepared = False

    def __getitem__(self, name: str) -> Any:
        command = super().__getitem__(name)
        if isinstance(command, _Listed):
            command = build_command(name, command.entry)
            if self.prepared:
                prepare(command)
            super().__setitem__(name, command)
        return command

    def get(self, name: str, default: Any = None) -> Any:  # type: ignore[override]
        return self[name] if name in self else default

    def values(self) -> list[Any]:  # type: ignore[override]
        return [self[name] for name in self]

    def items(self) -> list[tuple[str, Any]]:  # type: ignore[override]
        return [(name, self[name]) for name in self]

    def listed(self, name: str) -> Any:
        """The command ``name`` as its group's help lists it: built, or its summary (None if there is none)."""
        return super().get(name)


class LazyGroup(typer.core.TyperGroup):
    """A group whose commands (those of :data:`path` in the registry) are built from their modules on first use
    (``commands``: a :class:`_Commands`); its own ``--help`` lists them without building them."""

    #: the group's path under ``chemref`` in the registry (set by :func:`lazy_group`)
    path: ClassVar[tuple[str, ...]] = ()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        listed = {name: _Listed(name, entry) for name, entry in children(self.path).items()}
        self._commands = _Commands({**listed, **self.commands})  # commands before sub-groups, as typer lists them
        self.commands = self._commands
        self._listing = False

    def list_commands(self, ctx: Any) -> list[str]:
        """The names of the group's commands and sub-groups, in listing order (none is built)."""
        return list(self.commands)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        """The command ``cmd_name``, its module imported now if need be (only its summary while listing)."""
        if self._listing:
            return self._commands.listed(cmd_name)
        return self._commands.get(cmd_name)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        """The group's help; its commands listed by their summaries, none imported."""
        self._listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self._listing = False


def lazy_group(path: tuple[str, ...]) -> type[LazyGroup]:
    """The group class (for ``typer.Typer(cls=...)``) of the group at ``path`` (``()``: ``chemref`` itself)."""
    name = "".join(part.title().replace("-", "") for part in path) or "Chemref"
    return type(f"{name}Group", (LazyGroup,), {"path": path, "__doc__": LazyGroup.__doc__})


def build_command(name: str, entry: Entry) -> Any:
    """The command ``name`` of ``entry``: its module imported, its function made a command."""
    module, _, function = entry.target.partition(":")
    holder = typer.Typer(add_completion=False, pretty_exceptions_enable=False)
    holder.command(name, help=entry.help)(getattr(import_module(module), function))
    return typer.main.get_command(holder)


def prepare_tree(command: Any) -> Any:
    """:func:`~chemref.cli.commands.prepare` every command of the tree under ``command`` (a group or a command):
    those built now, and in each lazy group those built later, as they are; returns ``command``."""
    prepare(command)
    commands = getattr(command, "commands", {})
    if isinstance(commands, _Commands):
        commands.prepared = True
        subs = [sub for sub in map(commands.listed, commands) if not isinstance(sub, _Listed)]
    else:
        subs = list(commands.values())
    for sub in subs:
        prepare_tree(sub)
    return command
