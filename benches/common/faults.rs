//! Page faults: the serialize bench and `examples/serialize_profile.rs` count the minor
//! faults a serializer takes (first touches of fresh memory).

/// The process's minor page faults so far (field 10 of `/proc/self/stat`; 0 where there is
/// none).
pub fn minor_faults() -> u64 {
    let Ok(stat) = std::fs::read_to_string("/proc/self/stat") else {
        return 0;
    };
    // The command name (field 2) is in parentheses and may hold spaces: count from after it.
    stat.rsplit_once(')')
        .and_then(|(_, rest)| rest.split_whitespace().nth(7))
        .and_then(|f| f.parse().ok())
        .unwrap_or(0)
}
