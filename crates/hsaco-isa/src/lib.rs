//! The amdgcn instruction sets (being written).
