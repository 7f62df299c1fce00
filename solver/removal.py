"""``python -m solver.removal build``: the card-removal build's old command, kept because
the README documents it; the build is :mod:`solver.training.removal`."""

if __name__ == "__main__":
    from .training.removal import main

    raise SystemExit(main())
