"""What the bench scripts share (not benches themselves: they print no figures)."""
