//! Threat-space search: VCF (victory by continuous fours) and VCT (fours, open threes and
//! quiet threats), plus the forced-node classification both searches start from.
//!
//! - `forced`: what the side to move faces (a five to make or block, an open four to
//!   answer) and the answers to an open-four threat;
//! - `vcf`: the four-chain solver, and in a local form the alpha-beta's quiescence;
//! - `vct`: the threat-chain solver (fours and threes, locality below the root);
//! - `quiet`: quiet threats ("pass, then VCF") and the exact defences against them.
//!
//! Both solvers walk the same board and share the transposition table with the
//! alpha-beta, under keys salted per solver so a threat result never poses as a search
//! score; proofs and failures go through the table's named calls (`store_proof`,
//! `recall_proof`), which keep proofs at a depth no search reaches.

mod forced;
mod quiet;
mod vcf;
mod vct;

pub use forced::{defences, node_kind, quick_win, retain_legal, threat_blocks, NodeKind};

use crate::board::{five_cells, Board, MultiKey};
use crate::budget::Budget;
use crate::tt::TranspositionTable;
use crate::types::{Color, Pos};

/// Salt XORed into VCF keys.
pub(super) const VCF_SALT: MultiKey = MultiKey {
    hash: 0x9E37_79B9_7F4A_7C15,
    check: 0xC2B2_AE3D_27D4_EB4F,
};
/// Salt XORed into the keys of the horizon's local VCF (`vcf_local`).
pub(super) const QVCF_SALT: MultiKey = MultiKey {
    hash: 0x5851_F42D_4C95_7F2D,
    check: 0x1405_7B7E_F767_814F,
};
/// Salt XORed into VCT keys.
pub(super) const VCT_SALT: MultiKey = MultiKey {
    hash: 0xD6E8_FEB8_6659_FD93,
    check: 0x1656_67B1_9E37_79F9,
};

/// How an attacker node starts (see `attacker_entry`).
pub(super) enum Entry {
    /// A five is on offer: won in one.
    Won,
    /// Out of budget or depth, or facing two fives.
    Failed,
    /// Search on: the attacker, and the opponent's five cell if it has one.
    Open(Color, Option<Pos>),
}

/// Fours a quiet attacking move may leave the attacker needing: a quiet move (no four, no
/// open three) is a VCT threat when, were the defender to pass, the attacker would win by a
/// VCF of at most this many fours (a 4-3 or 4-4 set up one or two moves ahead).
pub(super) const QUIET_THREAT_FOURS: i32 = 3;

/// Quiet threats below the root must stand this close to the attacker's previous move.
pub(super) const QUIET_REACH: usize = 2;

/// Fours of the defender's VCF looked for at VCT nodes (see `vct_attack`, `vct_defend`).
pub(super) const COUNTER_VCF_FOURS: i32 = 2;

/// Quiet threats one VCT line may use.
pub(super) const QUIET_THREATS: i32 = 2;

/// Odd multipliers that spread a cell index over both key words (see `vct_attack`).
pub(super) const LAST_MOVE_MIX: MultiKey = MultiKey {
    hash: 0xA24B_AED4_963E_E407,
    check: 0x9FB2_1C65_1E98_DF25,
};

/// A winning line: the attacker's moves and the forced replies, alternating.
pub type ProofLine = Vec<Pos>;

/// The shared context of one threat search.
pub struct ThreatSearch<'a> {
    /// The position, restored on return.
    board: &'a mut Board,
    /// Shared table (may be a zero-size one); it decides key identity (checksum or not).
    tt: &'a mut TranspositionTable,
    /// Node and time budget.
    budget: &'a mut Budget,
    /// Set for a horizon VCF (`vcf_local`) of this many fours: at every attacker node
    /// below its root only fours near the attacker's previous four are tried, and its
    /// results go under their own salt, so a local failure never poses as a full VCF's.
    local_below: Option<i32>,
}

impl<'a> ThreatSearch<'a> {
    /// A threat search over `board` (restored on return), storing into `tt`, within
    /// `budget` (its node count grows by what the search visits).
    pub fn new(
        board: &'a mut Board,
        tt: &'a mut TranspositionTable,
        budget: &'a mut Budget,
    ) -> ThreatSearch<'a> {
        ThreatSearch {
            board,
            tt,
            budget,
            local_below: None,
        }
    }
}

impl ThreatSearch<'_> {
    fn key(&self, salt: MultiKey) -> MultiKey {
        self.board.key().with(salt)
    }

    /// What every attacker node checks first: the budget, a five to make (pushed onto
    /// `line`), two opponent fives or no depth left (a dead end).
    pub(super) fn attacker_entry(&mut self, depth: i32, line: &mut ProofLine) -> Entry {
        if self.budget.tick() {
            return Entry::Failed;
        }
        let me = self.board.side_to_move();
        if let Some(&f) = five_cells(self.board, me, 1).first() {
            line.push(f);
            return Entry::Won;
        }
        let opp_fives = five_cells(self.board, me.opp(), 2);
        if opp_fives.len() >= 2 || depth <= 0 {
            return Entry::Failed;
        }
        Entry::Open(me, opp_fives.first().copied())
    }
}

#[cfg(test)]
mod tests;
