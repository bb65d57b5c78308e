//! The lobby: open seeks (someone waiting for any opponent on the same terms),
//! paired as soon as a compatible one comes, or taken from the list. Two
//! users of whom one blocks the other are never paired.

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use caissa_arbiter::{GameSetup, Ruleset, TimeControl};
use caissa_store::User;
use tokio::sync::oneshot;

use crate::domain::choice::ColorChoice;
use crate::http::error::ApiError;
use crate::live::view::GameSource;
use crate::services::accounts::{is_bot, is_guest};
use crate::services::games::Games;
use crate::services::ratings::Ratings;
use crate::services::safety::Safety;

/// Open seeks one user may have at once.
const MAX_SEEKS_PER_USER: usize = 5;

/// What a seek asks for.
#[derive(Clone, Debug)]
pub struct SeekTerms {
    /// The clock.
    pub time_control: TimeControl,
    /// The seeker's colour.
    pub color: ColorChoice,
    /// Whether the game will be rated.
    pub rated: bool,
    /// The rules it will be played under.
    pub ruleset: Ruleset,
    /// Opponents' ratings the seeker accepts (inclusive), if limited.
    pub rating_range: Option<(u32, u32)>,
}

/// An open seek.
pub struct Seek {
    /// Its id.
    pub id: String,
    /// Who seeks.
    pub user: User,
    /// What it asks for.
    pub terms: SeekTerms,
    /// The seeker's rating at the seek's speed.
    pub rating: u32,
    /// The users the seeker blocks.
    avoid: HashSet<i64>,
    /// Told when the seek is taken, so the seeker's request ends.
    done: oneshot::Sender<()>,
}

/// A seek as the lobby lists it.
#[derive(Clone, Debug)]
pub struct Listed {
    /// Its id.
    pub id: String,
    /// The seeker's name.
    pub username: String,
    /// The seeker's rating.
    pub rating: u32,
    /// What it asks for.
    pub terms: SeekTerms,
}

/// The lobby of a server.
pub struct Lobby {
    games: Arc<Games>,
    ratings: Arc<Ratings>,
    safety: Arc<Safety>,
    seeks: Mutex<Vec<Seek>>,
}

fn accepts(range: Option<(u32, u32)>, rating: u32) -> bool {
    range.is_none_or(|(low, high)| (low..=high).contains(&rating))
}

impl Lobby {
    /// An empty lobby whose games start in `games`.
    pub fn new(games: Arc<Games>, ratings: Arc<Ratings>, safety: Arc<Safety>) -> Lobby {
        Lobby {
            games,
            ratings,
            safety,
            seeks: Mutex::default(),
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Vec<Seek>> {
        self.seeks.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Places a seek (not for bots), or pairs it with a waiting one of the same terms from another
    /// user whose rating each accepts (the game starts at once). Returns the seek's
    /// id and, if it waits, a receiver that fires when it is taken.
    pub async fn seek(
        &self,
        user: User,
        terms: SeekTerms,
    ) -> Result<(String, Option<oneshot::Receiver<()>>), ApiError> {
        refuse_bots(&user)?;
        if terms.rated && is_guest(&user) {
            return Err(ApiError::Forbidden(
                "guests cannot play rated games; register to seek one".into(),
            ));
        }
        let rating = self
            .ratings
            .rating_of(user.id, terms.time_control.speed())
            .await;
        let avoid = self.avoided_by(user.id).await?;
        let matched = {
            let mut seeks = self.lock();
            let compatible = |s: &Seek| {
                s.user.id != user.id
                    && !s.avoid.contains(&user.id)
                    && !avoid.contains(&s.user.id)
                    && s.terms.rated == terms.rated
                    && s.terms.ruleset == terms.ruleset
                    && s.terms.time_control == terms.time_control
                    && !(s.terms.color == terms.color && terms.color != ColorChoice::Random)
                    && accepts(s.terms.rating_range, rating)
                    && accepts(terms.rating_range, s.rating)
            };
            match seeks.iter().position(compatible) {
                Some(i) => Some(seeks.remove(i)),
                None => {
                    let mine = seeks.iter().filter(|s| s.user.id == user.id).count();
                    if mine >= MAX_SEEKS_PER_USER {
                        return Err(ApiError::TooManyRequests {
                            message: format!(
                                "you have {mine} seeks open; wait for one to be taken"
                            ),
                            retry_after_ms: 10_000,
                        });
                    }
                    None
                }
            }
        };
        let id = crate::domain::new_id();
        let Some(other) = matched else {
            let (done, wait) = oneshot::channel();
            self.lock().push(Seek {
                id: id.clone(),
                user,
                terms,
                rating,
                avoid,
                done,
            });
            return Ok((id, Some(wait)));
        };
        self.pair(other, user, terms.color, id.clone()).await?;
        Ok((id, None))
    }

    /// Takes the open seek `seek_id` (from the lobby's list); returns the game's id.
    pub async fn accept(&self, seek_id: &str, user: User) -> Result<String, ApiError> {
        refuse_bots(&user)?;
        let seek = {
            let mut seeks = self.lock();
            let i = seeks.iter().position(|s| s.id == seek_id).ok_or_else(|| {
                ApiError::NotFound(format!("seek {seek_id} (already taken or withdrawn)"))
            })?;
            if seeks[i].user.id == user.id {
                return Err(ApiError::BadRequest(
                    "you cannot accept your own seek".into(),
                ));
            }
            if seeks[i].avoid.contains(&user.id) {
                return Err(ApiError::Forbidden(format!(
                    "{} does not accept games from you",
                    seeks[i].user.name
                )));
            }
            if seeks[i].terms.rated && is_guest(&user) {
                return Err(ApiError::Forbidden(
                    "guests cannot play rated games; register to take this seek".into(),
                ));
            }
            seeks.remove(i)
        };
        let speed = seek.terms.time_control.speed();
        let rating = self.ratings.rating_of(user.id, speed).await;
        if let Some((low, high)) = seek.terms.rating_range {
            if !(low..=high).contains(&rating) {
                let message = format!(
                    "{} seeks opponents rated {low}-{high}; your {} rating is {rating}",
                    seek.user.name,
                    speed.name()
                );
                self.lock().push(seek);
                return Err(ApiError::Forbidden(message));
            }
        }
        let id = crate::domain::new_id();
        self.pair(seek, user, ColorChoice::Random, id.clone())
            .await?;
        Ok(id)
    }

    /// Starts the game of a waiting seek and its taker, and ends the seek's wait.
    async fn pair(
        &self,
        other: Seek,
        user: User,
        color: ColorChoice,
        id: String,
    ) -> Result<(), ApiError> {
        let other_white = match (other.terms.color, color) {
            (ColorChoice::White, _) | (_, ColorChoice::Black) => true,
            (ColorChoice::Black, _) | (_, ColorChoice::White) => false,
            _ => rand::random(),
        };
        let (white, black) = if other_white {
            (&other.user, &user)
        } else {
            (&user, &other.user)
        };
        let setup = GameSetup::new(
            &white.name,
            &black.name,
            other.terms.ruleset,
            other.terms.time_control.clone(),
        );
        self.games
            .start(
                id,
                (white.id, white.name.clone()),
                (black.id, black.name.clone()),
                setup,
                other.terms.rated,
                GameSource::Lobby,
            )
            .await?;
        let _ = other.done.send(());
        Ok(())
    }

    /// The seeks waiting now, oldest first.
    pub fn listed(&self) -> Vec<Listed> {
        self.lock()
            .iter()
            .map(|s| Listed {
                id: s.id.clone(),
                username: s.user.name.clone(),
                rating: s.rating,
                terms: s.terms.clone(),
            })
            .collect()
    }

    /// Withdraws a seek (its seeker went away).
    pub fn cancel(&self, id: &str) {
        self.lock().retain(|s| s.id != id);
    }

    /// Withdraws every seek of `user` (whose account is closing).
    pub fn withdraw_all_of(&self, user: i64) {
        self.lock().retain(|s| s.user.id != user);
    }

    /// The ids of the users `user` blocks.
    async fn avoided_by(&self, user: i64) -> Result<HashSet<i64>, ApiError> {
        Ok(self
            .safety
            .blocked_by(user)
            .await?
            .into_iter()
            .map(|u| u.id)
            .collect())
    }
}

/// Bots do not seek or take seeks (as on lichess): they challenge and accept
/// challenges.
fn refuse_bots(user: &User) -> Result<(), ApiError> {
    if is_bot(user) {
        return Err(ApiError::BadRequest(
            "bot accounts do not seek in the lobby or the pools; challenge a player or a bot instead"
                .into(),
        ));
    }
    Ok(())
}
