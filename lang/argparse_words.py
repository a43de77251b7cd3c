"""argparse's own words, as Python 3.11 to 3.13 say them, marked so that they are in our
catalog with their Finnish (`_argparse_speaks` in __init__.py sends argparse's words
through it). Only what a person running our commands can read: the words of a mistake
in a parser itself (conflicting options and the like), and the plural of "expected %s
argument" (no option of ours takes a fixed number of values), stay English."""

from __future__ import annotations

from . import N_

ARGPARSE = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("unrecognized arguments: %s"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("not allowed with argument %s"),
    N_("ignored explicit argument %r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("unexpected option string: %s"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
)
