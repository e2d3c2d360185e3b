//! The protocols this build offers, by name.

pub use brickyard_protocols::registry::ProtocolInfo;

/// Every protocol this build offers, with its adversary model and a
/// one-line summary. A [`crate::Computation`] takes one of these names.
///
/// ```
/// let names: Vec<&str> = brickyard::protocols().iter().map(|p| p.name).collect();
/// assert!(names.contains(&"yao") && names.contains(&"lego"));
/// ```
pub fn protocols() -> &'static [ProtocolInfo] {
    brickyard_protocols::registry::PROTOCOLS
}
