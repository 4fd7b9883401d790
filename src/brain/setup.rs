//! Set-up positions: `BOARD` (the whole game, then our move) and `SWAP2BOARD` (the swap2
//! opening, answered with the simplest legal policy).

use super::{Brain, Refusal, Reply};
use crate::types::{Color, Pos};
use gomocup_protocol::{BoardStone, Coord, Field, Response};
use std::time::Instant;

impl Brain {
    pub(super) fn board(&mut self, stones: &[BoardStone], arrival: Instant) -> Reply {
        self.game()?;
        match self.setup(stones) {
            Ok(()) => self.think(arrival),
            Err(why) => {
                self.clear_board();
                Err(why)
            }
        }
    }

    /// Replace the game by a `BOARD` position; the brain is to move.
    ///
    /// Colours: equal counts mean we moved first (black); one opponent stone more means we
    /// are white; anything else is inconsistent. Field-3 stones (completed lines of a
    /// continuous game) count for neither side: the board has no neutral stone, so they
    /// are placed in alternating colours, which keeps their cells occupied without letting
    /// them form a line for either side.
    fn setup(&mut self, stones: &[BoardStone]) -> Result<(), Refusal> {
        let size = self.engine.board().size();
        let mut seen = vec![false; size * size];
        let (mut own, mut opp) = (0usize, 0usize);
        let mut cells = Vec::with_capacity(stones.len());
        for s in stones {
            let pos = self.cell(s.at).ok_or(Refusal::OffBoard(s.at))?;
            if std::mem::replace(&mut seen[pos.y() * size + pos.x()], true) {
                return Err(Refusal::Repeated(s.at));
            }
            match s.field {
                Field::Own => own += 1,
                Field::Opponent => opp += 1,
                Field::Blocked => {}
            }
            cells.push(pos);
        }
        let me = if own == opp {
            Color::Black
        } else if opp == own + 1 {
            Color::White
        } else {
            return Err(Refusal::Counts(own, opp));
        };
        let mut neutral = Color::Black;
        let placed: Vec<(Pos, Color)> = stones
            .iter()
            .zip(cells)
            .map(|(s, pos)| {
                let color = match s.field {
                    Field::Own => me,
                    Field::Opponent => me.opp(),
                    Field::Blocked => {
                        neutral = neutral.opp();
                        neutral
                    }
                };
                (pos, color)
            })
            .collect();
        self.engine
            .set_position(&placed, me)
            .map_err(|_| Refusal::BadCoords)
    }

    /// Swap2 (PROTOCOL.md §2.12), the simplest legal policy: open with a fixed three-stone
    /// shape, never swap, and answer 3 or 5 stones by playing the next white stone.
    pub(super) fn swap2(&mut self, stones: &[Coord], arrival: Instant) -> Reply {
        self.move_refusal()?;
        let size = self.engine.board().size();
        if stones.is_empty() {
            let c = (size / 2) as i64;
            return Ok(vec![Response::Stones(vec![
                Coord::new(c, c),
                Coord::new(c + 1, c),
                Coord::new(c, c + 2),
            ])]);
        }
        if stones.len() != 3 && stones.len() != 5 {
            return Err(Refusal::Swap2Count(stones.len()));
        }
        // Stones alternate black, white, black…; with an odd count white is to move, which
        // is us after "no swap". In BOARD terms: black = opponent, white = own.
        let board: Vec<BoardStone> = stones
            .iter()
            .enumerate()
            .map(|(i, &at)| BoardStone {
                at,
                field: if i % 2 == 0 {
                    Field::Opponent
                } else {
                    Field::Own
                },
            })
            .collect();
        self.board(&board, arrival)
    }
}
