"""A mines run's telemetry (D1 data-supply item 13 and A2's observable metrics; format
``gridforge.mines.telemetry/1``, see ``docs/mines-run.md``): one record per round of what
the player did and spent (:class:`RoundTelemetry`), summed for the run
(:func:`run_telemetry`).
"""

from __future__ import annotations

from gridforge.mines.run_json import RoundJson, Telemetry
from gridforge.mines.run_words import REASON_WORDS

TELEMETRY_FORMAT = "gridforge.mines.telemetry/1"
# The seed's input-friction guard rail (data-supply item 13): input actions per AP spent.
FRICTION_GUARD = 2


class RoundTelemetry:
    """Telemetry of one round (D1 data-supply item 13 and A2's observable metrics)."""

    def __init__(self, battle: int, board: int, number: int) -> None:
        self.battle, self.board, self.number = battle, board, number
        self.inputs = 0
        self.ap_spent = 0
        self.batches = 0
        self.chains: list[int] = []
        self.rejections: dict[str, int] = {}

    def to_json(self) -> RoundJson:
        ratio = round(self.inputs / self.ap_spent, 3) if self.ap_spent else None
        return {"battle": self.battle, "board": self.board, "round": self.number,
                "input_actions": self.inputs, "ap_spent": self.ap_spent,
                "actions_per_ap": ratio, "batches": self.batches, "chain_sizes": self.chains,
                "rejections": dict(sorted(self.rejections.items()))}


def run_telemetry(seed: int, rounds_played: list[RoundTelemetry]) -> Telemetry:
    """D1's telemetry of the run of ``seed`` that played ``rounds_played``."""
    rounds = [r.to_json() for r in rounds_played]
    inputs = sum(r.inputs for r in rounds_played)
    spent = sum(r.ap_spent for r in rounds_played)
    rejections: dict[str, int] = {}
    chains: dict[str, int] = {}
    for r in rounds_played:
        for reason, count in r.rejections.items():
            rejections[reason] = rejections.get(reason, 0) + count
        for size in r.chains:
            chains[str(size)] = chains.get(str(size), 0) + 1
    over = sum(1 for r in rounds
               if r["actions_per_ap"] is not None and r["actions_per_ap"] > FRICTION_GUARD)
    return {
        "format": TELEMETRY_FORMAT,
        "seed": seed,
        "guard_actions_per_ap": FRICTION_GUARD,
        "totals": {
            "rounds": len(rounds),
            "input_actions": inputs,
            "ap_spent": spent,
            "actions_per_ap": round(inputs / spent, 3) if spent else None,
            "rounds_over_guard": over,
            "batches": sum(r.batches for r in rounds_played),
            "batches_per_round": round(sum(r.batches for r in rounds_played) / len(rounds),
                                       3) if rounds else None,
            "chain_sizes": dict(sorted(chains.items(), key=lambda i: int(i[0]))),
            "rejections": dict(sorted(rejections.items())),
            "reason_words": {reason: REASON_WORDS.get(reason, reason.replace("_", " "))
                             for reason in sorted(rejections)},
        },
        "rounds": rounds,
    }
