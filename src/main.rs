//! `hsaco`: a toolchain for AMD GPU code objects.
fn main() {
    println!("hsaco");
}
