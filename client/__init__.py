"""The Sarja terminal client: draws what the server sends, sends what the player means."""
