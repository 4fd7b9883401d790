//! Quiet threats: moves that make no three but after which the attacker would win by a
//! short VCF if the defender passed, and the exact set of replies that might stop such a
//! VCF (its cells, counter-fours made by the forced blocks, the defender's own fours).

use super::{ProofLine, ThreatSearch, QUIET_REACH, QUIET_THREAT_FOURS};
use crate::board::{cells_at_least, scan_lines_by_dir};
use crate::eval::pattern::{Pattern, Pattern4};
use crate::types::{Color, Pos};
use smallvec::SmallVec;

impl ThreatSearch<'_> {
    /// Append the attacker's quiet threats: cells with an open two or a closed three (but no
    /// three or four) after which, if the defender passed, a short VCF would win.
    pub(super) fn push_quiet_threats(
        &mut self,
        me: Color,
        root: bool,
        answers: Option<&[Pos]>,
        moves: &mut SmallVec<[Pos; 32]>,
    ) {
        let last = if root {
            None
        } else {
            self.board.recent_move(1)
        };
        let mut quiet: SmallVec<[(Pos, i32); 16]> = SmallVec::new();
        let board = &*self.board;
        board.for_each_candidate(|p| {
            let class = board.p4(p, me);
            if class >= Pattern4::LFlex2
                && class < Pattern4::HFlex3
                && last.is_none_or(|l| l.distance(p) <= QUIET_REACH)
                && answers.is_none_or(|a| a.contains(&p))
                && !board.is_forbidden_for(p, me)
            {
                quiet.push((p, board.cell(p).value[me.idx()] as i32));
            }
        });
        quiet.sort_by_key(|&(_, v)| -v);
        for (p, _) in quiet {
            self.board.play(p);
            let threat = self.pass_vcf(QUIET_THREAT_FOURS).is_some();
            self.board.undo().ok();
            if threat {
                moves.push(p);
            }
            if self.budget.stopped() {
                return;
            }
        }
    }

    /// Every reply that might stop the VCF of at most `max_fours` fours the opponent would
    /// have were the side to move to pass (see `threat_defences`); `None` if there is none.
    pub fn pass_threat_defences(&mut self, max_fours: i32) -> Option<SmallVec<[Pos; 32]>> {
        let threat = self.pass_vcf(max_fours)?;
        Some(self.threat_defences(&threat))
    }

    /// The VCF the side that just moved would have if the side to move passed.
    pub(super) fn pass_vcf(&mut self, max_fours: i32) -> Option<ProofLine> {
        let me = self.board.side_to_move();
        self.board.set_side_to_move(me.opp());
        let line = self.vcf(max_fours);
        self.board.set_side_to_move(me);
        line
    }

    /// Every reply that might stop the attacker's VCF `threat` (found after a pass): its
    /// cells, the cells where one of the defender's forced blocks along it would make him a
    /// four, and every four of the defender's own. Any other reply leaves `threat` winning:
    /// its fours and five cells are untouched and no block turns into a counter-four.
    pub(super) fn threat_defences(&mut self, threat: &[Pos]) -> SmallVec<[Pos; 32]> {
        let me = self.board.side_to_move();
        let att = me.opp();
        let mut out: SmallVec<[Pos; 32]> = SmallVec::new();
        let add = |out: &mut SmallVec<[Pos; 32]>, p: Pos| {
            if !out.contains(&p) {
                out.push(p);
            }
        };
        for &p in threat {
            add(&mut out, p);
        }
        // Replay the forced part (four, block, four, block ...) to read the counter-fours.
        let forced = threat.len().saturating_sub(1) / 2;
        let mut played = 0;
        for i in 0..forced {
            let (a, d) = (threat[2 * i], threat[2 * i + 1]);
            if !self.board.is_empty(a) || !self.board.is_empty(d) {
                break;
            }
            self.board.play_as(a, att);
            self.board.play_as(d, me);
            played += 2;
            let board = &*self.board;
            scan_lines_by_dir(board, d, |dir, x| {
                if board.cell(x).line(dir, me.idx()) >= Pattern::B4 {
                    add(&mut out, x);
                }
            });
        }
        for _ in 0..played {
            self.board.undo().ok();
        }
        for p in cells_at_least(self.board, me, Pattern4::EBlock4) {
            add(&mut out, p);
        }
        out
    }
}
