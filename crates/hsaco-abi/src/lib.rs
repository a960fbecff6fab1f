//! The AMDGPU HSA ABI: explicit and hidden kernel arguments per code object version.
