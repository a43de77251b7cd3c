"""The Sarja wire protocol: framed msgpack, typed messages, strict validation. Sans-IO.

    from sarja.protocol.codec import ServerCodec   # or ClientCodec on the other end
    codec = ServerCodec()
    codec.receive_data(data)        # bytes from the socket; b"" at end of stream
    while (msg := codec.next_message()) is not None:
        ...                         # a validated, frozen message
    sock.send(codec.send(reply))    # bytes to write

Errors are ProtocolError (errors.py): RemoteProtocolError when the peer is at fault
(answer it with `codec.error_reply(exc)`; close if `exc.fatal`), LocalProtocolError when
we are.

Two layers, each module imported by name (this file imports nothing):
- the vocabulary, pure and standard library only, which the rules engine shares:
  `cards` (cards, board, cells, fives, levels), `notation` (actions as text) and
  `changes` (what an update says happened);
- the wire: `codec`, `framing`, `wire` (msgpack), `messages` and their parts, the changes
  as maps (`change_wire`), `session`,
  and the member's copy of the game, `mirror`.
"""
