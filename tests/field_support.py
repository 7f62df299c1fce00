"""The hand the field tests share: under vietnamese at 4 players its best set differs in
each field (tests/test_field_app.py checks it does).  Against beginners the kings and the
sevens make two pair in the middle before the eights full; the mixed field keeps the full
house and puts the sevens in front; the strong field breaks it for a straight behind and
the kings in front.  The beginners' set is a mistake or a blunder against the other two.
(The hand before it stopped having three different best sets when the strong field
started re-ranking its best sets.)"""

FIELD_HAND = "9d Kh 4c 2c 6s 2h 7d 8h Kd Tc 8d 7c 8s"
