"""The hand the field tests share: under vietnamese at 4 players its best set differs in
each field (tests/test_field_app.py checks it does).  Against beginners the tens join the
queens in the middle; against the other fields they go in front, with the eight (mixed) or
the six (strong), and the beginners' set is a mistake or a blunder there."""

FIELD_HAND = "6h Kh Js Qd 4d 2h Kd Tc Qc 8s Kc 4c Td"
