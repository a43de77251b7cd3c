"""Every sentence the player reads, one module per screen family.

`common` names the things of the game (cards, sides, table shapes); `connect` the
connection and the name screen; `lobby` the lobby and the new-table form; `table` the
waiting room and what happens at a table; `game` the game screen and what its keys say;
`log` the game's log, one sentence per change; `help` the help pages. The drawing code
(render*.py) and the code that acts (perform.py and its helpers) take their words from
here and add none of their own, so a second language is a catalogue for these modules.
"""
