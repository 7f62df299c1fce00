"""The trainer: what a player's set got wrong, in words and numbers, and how they are rated.

* :mod:`trainer.ev_parts` splits the expected chi of a set (and the gap between two sets)
  into the parts of the fast solver's objective: each row, the bonuses, sập, sập làng,
  card removal, a foul, a special hand and the aces.
* :mod:`trainer.themes` names the mistakes: a documented taxonomy of themes found by
  comparing the played set with the best one.
* :mod:`trainer.drills` deals seeded hands where a chosen theme matters, and the daily hand.
* :mod:`trainer.rating` rates a player with Glicko-2, each hand an opponent.

No Streamlit here: the app formats what these return (``app/feedback.py``).
"""
