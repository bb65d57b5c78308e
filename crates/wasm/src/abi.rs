//! The WebAssembly boundary: JavaScript reserves a buffer with `caissa_alloc`,
//! writes the request's UTF-8 bytes into it, calls `caissa_call` (which frees
//! it), and reads the answer from `caissa_out_ptr`/`caissa_out_len` until the
//! next call. The only `unsafe` code of the project: raw pointers are what a
//! WebAssembly module's exports can carry.
#![allow(unsafe_code)]

use std::cell::RefCell;

thread_local! {
    /// The last answer, kept until the next call.
    static OUT: RefCell<String> = const { RefCell::new(String::new()) };
}

/// Reserves `len` bytes for a request.
#[no_mangle]
pub extern "C" fn caissa_alloc(len: usize) -> *mut u8 {
    let mut buffer = Vec::<u8>::with_capacity(len.max(1));
    let ptr = buffer.as_mut_ptr();
    std::mem::forget(buffer);
    ptr
}

/// Answers the request of `len` bytes at `ptr` (from [`caissa_alloc`] with the
/// same `len`, which this frees).
///
/// # Safety
/// `ptr` must come from `caissa_alloc(len)`, with `len` bytes written, and not
/// be used again.
#[no_mangle]
pub unsafe extern "C" fn caissa_call(ptr: *mut u8, len: usize) {
    // SAFETY: the caller gives back the buffer caissa_alloc(len) reserved,
    // with len bytes written.
    let request = unsafe { Vec::from_raw_parts(ptr, len, len.max(1)) };
    let answer = crate::answer(&request);
    OUT.with(|out| *out.borrow_mut() = answer);
}

/// Where the last answer's bytes are.
#[no_mangle]
pub extern "C" fn caissa_out_ptr() -> *const u8 {
    OUT.with(|out| out.borrow().as_ptr())
}

/// How many bytes the last answer has.
#[no_mangle]
pub extern "C" fn caissa_out_len() -> usize {
    OUT.with(|out| out.borrow().len())
}
