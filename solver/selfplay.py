"""``python -m solver.selfplay build``: the self-play build's old command, kept because
the README documents it; the build is :mod:`solver.training.selfplay`."""

if __name__ == "__main__":
    from .training.selfplay import main

    raise SystemExit(main())
