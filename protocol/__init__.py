"""The Sarja wire protocol: framed msgpack, typed messages, strict validation. Sans-IO."""
