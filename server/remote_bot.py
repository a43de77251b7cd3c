"""`sarja-bot` moved to the client side: sarja.client.bot. This name stays only so that
an install made before the move (its `sarja-bot` script imports it) still starts;
reinstalling (`pip install -e .`) points the script at the new place."""

from sarja.client.bot import main

__all__ = ["main"]
