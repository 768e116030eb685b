"""Why the game layer did not do what was asked: an enum the bot words in the user's language.

The game layer names no catalog key and no Telegram concept; a refusal is a value plus, for a
rules question, the engine's :class:`~engine.Reason` (which names the RULES.md ids).
"""

from __future__ import annotations

from enum import StrEnum

from engine import NotationError, Reason


class Refusal(StrEnum):
    """What went wrong, as far as the person who asked needs to know."""

    GAME_NOT_FOUND = "game_not_found"
    GAME_OVER = "game_over"
    GAME_NOT_OVER = "game_not_over"  # asked for what only a finished game has (a review)
    MATCH_NOT_OVER = "match_not_over"  # a match's review before the match has ended
    GAME_EXISTS = "game_exists"  # the chat (or topic) already has a game running
    OUTDATED = "outdated"  # a button of an older state of the board
    NOT_A_PLAYER = "not_a_player"
    NOT_YOUR_TURN = "not_your_turn"
    NO_DICE_YET = "no_dice_yet"  # a move, undo or Done before the roll
    WRONG_PHASE = "wrong_phase"  # not at this point of the turn (e.g. taking an unoffered cube)
    NOTHING_TO_UNDO = "nothing_to_undo"
    BAD_NOTATION = "bad_notation"  # text that cannot be read as a play (``notation`` says why)
    ILLEGAL = "illegal"  # the rules forbid it: ``reason`` says which rule
    HINTS_OFF = "hints_off"
    NO_HINT_NOW = "no_hint_now"  # hints exist only for the mover with dice rolled
    INVITE_UNKNOWN = "invite_unknown"
    INVITE_OWN = "invite_own"
    INVITE_CLOSED = "invite_closed"
    INVITE_EXPIRED = "invite_expired"
    INVITE_NOT_FOR_YOU = "invite_not_for_you"
    CANCEL_ONLY_INVITER = "cancel_only_inviter"
    CLAIM_NO_CLOCK = "claim_no_clock"  # the game has no move clock
    CLAIM_NOT_YET = "claim_not_yet"  # the time of the move is not up yet
    CLAIM_OWN_CLOCK = "claim_own_clock"  # the claimant is the one whose time ran out
    NO_OFFER = "no_offer"  # no standing offer to abandon (withdrawn, or a move came since)
    OWN_OFFER = "own_offer"  # the other player accepts an offer, not the one who made it
    ABANDON_VS_COMPUTER = "abandon_vs_computer"  # the computer agrees to nothing: resign
    NOT_ADMIN = "not_admin"  # only a group's admins end a game they do not play


class Refused(Exception):
    """The game layer refused; nothing was changed."""

    def __init__(
        self,
        refusal: Refusal,
        *,
        reason: Reason | None = None,
        detail: str = "",
        notation: NotationError | None = None,
    ) -> None:
        super().__init__(f"{refusal}{': ' + detail if detail else ''}")
        self.refusal = refusal
        self.reason = reason  # ILLEGAL: the engine's reason, naming the broken rule
        self.detail = detail  # for logs
        self.notation = notation  # BAD_NOTATION: the engine's error (its code and parameters)

    @property
    def rule_ids(self) -> tuple[str, ...]:
        """The RULES.md ids behind an :attr:`Refusal.ILLEGAL` (empty for the others)."""
        return self.reason.rule_ids if self.reason is not None else ()
