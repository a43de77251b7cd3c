"""Golden bytes: every message encodes to the documented bytes and decodes back, whole
and one byte at a time; docs/protocol.md shows the same bytes."""

import re
from pathlib import Path

import pytest

from sarja.protocol import ClientCodec, ServerCodec, SessionState
from sarja.protocol.examples import CLIENT_EXAMPLES, OUTCOME, SERVER_EXAMPLES
from sarja.protocol.messages import CLIENT_MESSAGES, SERVER_MESSAGES, State
from sarja.protocol.session import CLIENT_ALLOWED, SERVER_ALLOWED

DOC = Path(__file__).resolve().parent.parent / "docs" / "protocol.md"

GOLDEN = {
    "client:hello": (
        "0000002484a174a568656c6c6fa776657273696f6e01a46e616d65a441696e6fa6726573756d65c0"
    ),
    "client:ping": "0000000b82a174a470696e67a16e07",
    "client:pong": "0000000b82a174a4706f6e67a16e07",
    "client:list_tables": "0000000f81a174ab6c6973745f7461626c6573",
    "client:create_table": (
        "0000005787a174ac6372656174655f7461626c65a46e616d65a6467269646179a7706c61"
        "7965727302a57465616d7302a968616e645f73697a65c0ab6d616e75616c5f64726177c2"
        "b1636f6d70757465725f74616b656f766572c2"
    ),
    "client:join": ("0000001d84a174a46a6f696ea57461626c65a27431a47365617400a473696465c0"),
    "client:spectate": "0000001582a174a87370656374617465a57461626c65a27431",
    "client:sit": "0000000d82a174a3736974a47365617401",
    "client:ready": "0000001082a174a57265616479a57265616479c3",
    "client:leave": "0000000981a174a56c65617665",
    "client:rematch": "0000000b81a174a772656d61746368",
    "client:chat": "0000001882a174a463686174a474657874aa476f6f64206c75636b21",
    "client:play": (
        "0000003186a174a4706c6179a2696403a776657273696f6e0ca463617264a23548a46365"
        "6c6c920404a56669766573919404000404"
    ),
    "client:remove": (
        "0000002785a174a672656d6f7665a2696404a776657273696f6e0da463617264a24a53a463656c6c920500"
    ),
    "client:exchange": (
        "0000002184a174a865786368616e6765a2696405a776657273696f6e0ea463617264a23943"
    ),
    "client:draw": "0000001583a174a464726177a2696406a776657273696f6e0f",
    "client:pass": "0000001583a174a470617373a2696407a776657273696f6e10",
    "server:welcome": (
        "0000019486a174a777656c636f6d65a776657273696f6e01a773657373696f6ea27331a6"
        "726573756d65d929713276395830633354376d5a705731794b387242346e453664463567"
        "485f614a2d734c30755678597aa66c61796f7574dc0064a25858a23253a23353a23453a2"
        "3553a23653a23753a23853a23953a25858a23643a23543a23443a23343a23243a24148a2"
        "4b48a25148a25448a25453a23743a24153a23244a23344a23444a23544a23644a23744a2"
        "3948a25153a23843a24b53a23643a23543a23443a23343a23243a23844a23848a24b53a2"
        "3943a25153a23743a23648a23548a23448a24148a23944a23748a24153a25443a25453a2"
        "3843a23748a23248a23348a24b48a25444a23648a23244a25143a23953a23943a23848a2"
        "3948a25448a25148a25144a23548a23344a24b43a23853a25443a25143a24b43a24143a2"
        "4144a24b44a23448a23444a24143a23753a23653a23553a23453a23353a23253a23248a2"
        "3348a23544a25858a24144a24b44a25144a25444a23944a23844a23744a23644a25858a6"
        "736572766572a55361726a61"
    ),
    "server:error": (
        "0000004485a174a56572726f72a4636f6465ad6e6f745f796f75725f7475726ea76d6573"
        "73616765b449742069732042657274696c2773207475726e2ea2696403a5666174616cc2"
    ),
    "server:bye": (
        "0000003a83a174a3627965a4636f6465a873687574646f776ea76d657373616765bc5468"
        "6520736572766572206973207368757474696e6720646f776e2e"
    ),
    "server:ping": "0000000b82a174a470696e67a16e08",
    "server:pong": "0000000b82a174a4706f6e67a16e08",
    "server:tables": (
        "0000008a82a174a67461626c6573a67461626c65739189a26964a27431a46e616d65a646"
        "7269646179a7706c617965727302a57465616d7302a673656174656492a441696e6fc0aa"
        "737065637461746f727300a773746172746564c2a572756c657382a968616e645f73697a"
        "6507ab6d616e75616c5f64726177c2b1636f6d70757465725f74616b656f766572c2"
    ),
    "server:table": (
        "000000ab8ba174a57461626c65a26964a27431a46e616d65a6467269646179a7706c6179"
        "65727302a57465616d7302a573656174739283a46e616d65a441696e6fa57265616479c3"
        "a461776179c283a46e616d65c0a57265616479c2a461776179c2aa737065637461746f72"
        "7300a773746172746564c2a572756c657382a968616e645f73697a6507ab6d616e75616c"
        "5f64726177c2b1636f6d70757465725f74616b656f766572c2a47365617400"
    ),
    "server:state": (
        "00000212de0017a174a57374617465a57461626c65a27431a776657273696f6e0ca47365"
        "617400a7706c61796572739284a46e616d65a441696e6fa47369646500a461776179c2a9"
        "68616e645f73697a650784a46e616d65a642657274696ca47369646501a461776179c2a9"
        "68616e645f73697a6507a5736964657302a66e656564656402a468616e6497a23548a237"
        "48a24a44a25153a23243a24144a23953a5626f617264d9642a2e2e2e2e2e2e2e2e2a2e2e"
        "2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e672e2e626262622e622e2e"
        "2e2e672e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e2e"
        "2e2e2e2e2e2e2a2e2e2e2e2e2e2e2e2aa76469736361726496a23248a23348a23448a241"
        "43a23648a23844a9647261775f73697a6554a973657175656e636573929090a47475726e"
        "00a5666972737400a363757491929200a233439201a24b44a46c61737482a47365617401"
        "a6616374696f6ea53844404834a56c6567616c97a53548404535a53748404935a5374840"
        "4436a54a44404231a55153404a33a53243404532a54144404738a763686f696365739182"
        "a463656c6c920404a76f7074696f6e7392919404000404919404010405a965786368616e"
        "676564c2ac70656e64696e675f6472617790a670617373657300a572756c657382a96861"
        "6e645f73697a6507ab6d616e75616c5f64726177c2a76f7574636f6d65c0"
    ),
    "server:event": (
        "0000006d8aa174a56576656e74a776657273696f6e0ca46b696e64a6706c61796564a474"
        "657874b942657274696c20706c617965642038e299a62061742048342ea47365617401a4"
        "7369646501a463617264a23844a463656c6c920305a6616374696f6ea53844404634a566"
        "69766573c0"
    ),
    "server:chat": (
        "0000002a84a174a463686174a466726f6da642657274696ca47365617401a474657874aa"
        "476f6f64206c75636b21"
    ),
    "server:ack": "0000001483a174a361636ba2696403a776657273696f6e0d",
}

EXAMPLES = [("client", m) for m in CLIENT_EXAMPLES] + [("server", m) for m in SERVER_EXAMPLES]
IDS = [f"{d}:{m.TYPE}" for d, m in EXAMPLES]


def state_allowing(direction: str, t: str) -> SessionState:
    allowed = CLIENT_ALLOWED if direction == "client" else SERVER_ALLOWED
    return next(s for s in SessionState if t in allowed[s])


def sender(direction: str, t: str) -> ClientCodec | ServerCodec:
    codec = ClientCodec() if direction == "client" else ServerCodec()
    codec.session.state = state_allowing(direction, t)
    return codec


def receiver(direction: str) -> ClientCodec | ServerCodec:
    return ServerCodec() if direction == "client" else ClientCodec()


def test_every_message_type_has_an_example() -> None:
    assert {m.TYPE for m in CLIENT_EXAMPLES} == set(CLIENT_MESSAGES)
    assert {m.TYPE for m in SERVER_EXAMPLES} == set(SERVER_MESSAGES)
    assert set(GOLDEN) == set(IDS)


@pytest.mark.parametrize(("direction", "msg"), EXAMPLES, ids=IDS)
def test_encodes_to_golden_bytes(direction: str, msg: object) -> None:
    key = f"{direction}:{msg.TYPE}"  # type: ignore[attr-defined]
    assert sender(direction, msg.TYPE).send(msg).hex() == GOLDEN[key]  # type: ignore[attr-defined]


@pytest.mark.parametrize(("direction", "msg"), EXAMPLES, ids=IDS)
def test_decodes_whole_and_byte_at_a_time(direction: str, msg: object) -> None:
    data = bytes.fromhex(GOLDEN[f"{direction}:{msg.TYPE}"])  # type: ignore[attr-defined]
    state = state_allowing("server" if direction == "server" else "client", msg.TYPE)  # type: ignore[attr-defined]

    whole = receiver(direction)
    whole.session.state = state
    whole.receive_data(data)
    assert whole.next_message() == msg
    assert whole.next_message() is None

    drip = receiver(direction)
    drip.session.state = state
    got = []
    for i in range(len(data)):
        drip.receive_data(data[i : i + 1])
        m = drip.next_message()
        if m is not None:
            got.append((i, m))
    assert got == [(len(data) - 1, msg)]
    assert drip.session.state == whole.session.state


def test_a_whole_session_stream_splits_anywhere() -> None:
    """The client examples form one stream; any split point gives the same messages."""
    data = b"".join(bytes.fromhex(GOLDEN[f"client:{m.TYPE}"]) for m in CLIENT_EXAMPLES)

    def decode(chunks: list[bytes]) -> list[object]:
        codec = ServerCodec()
        out = []
        for chunk in chunks:
            codec.receive_data(chunk)
            while True:
                codec.session.state = SessionState.GAME  # others come out as wrong_state
                try:
                    m = codec.next_message()
                except Exception as exc:  # wrong_state for lobby messages: still decoded
                    out.append(getattr(exc, "code", exc))
                    continue
                if m is None:
                    break
                out.append(m)
        return out

    whole = decode([data])
    for cut in range(1, len(data), 7):  # b"" would mean end of stream
        assert decode([data[:cut], data[cut:]]) == whole
    assert decode([data[i : i + 1] for i in range(len(data))]) == whole


def test_finished_state_round_trips() -> None:
    state = next(m for m in SERVER_EXAMPLES if isinstance(m, State))
    kwargs = {n: getattr(state, n) for n in State.__dataclass_fields__}
    over = State(**{**kwargs, "outcome": OUTCOME, "legal": ()})
    server = ServerCodec()
    server.session.state = SessionState.GAME
    client = ClientCodec()
    client.session.state = SessionState.GAME
    client.receive_data(server.send(over))
    assert client.next_message() == over
    assert client.state == server.state == SessionState.ENDED


def doc_golden() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8")
    blocks = re.findall(r"Golden bytes, `(\w+:\w+)`, \d+ bytes:\s*```text\n(.*?)```", text, re.S)
    return {key: "".join(body.split()) for key, body in blocks}


def test_docs_show_the_golden_bytes() -> None:
    documented = doc_golden()
    assert set(documented) == set(GOLDEN)
    for key, hexed in GOLDEN.items():
        assert documented[key] == hexed, key
