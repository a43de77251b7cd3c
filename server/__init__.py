"""The authoritative Sarja server: lobby, tables and games, over trio."""
