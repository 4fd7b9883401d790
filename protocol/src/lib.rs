//! The Gomocup (piskvork) brain protocol, typed, for both sides of the pipe.
