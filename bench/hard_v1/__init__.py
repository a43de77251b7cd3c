"""Hard as it was before threats were judged as threats (frozen, never a level).

A copy of server/bots' search, judgement, reading and worlds at that point, so
bench/bots.py can measure today's hard against it (`hard-v1`). Do not improve
it: its worth is that it stays the same.
"""
