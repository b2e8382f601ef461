//! The functions the parser recognises by name and the evaluators know how to compute.

/// Every function with a known meaning. A name not listed here (`f`, `W`) is an unknown
/// function: two applications are equal only when name and arguments are.
const KNOWN: &[&str] = &[
    "sin", "cos", "tan", "sec", "csc", "cot", "arcsin", "arccos", "arctan", "arcsec", "arccsc", "arccot", "sinh",
    "cosh", "tanh", "ln", "log", "exp", "sqrt", "root", "abs", "fact", "binom", "floor", "ceil", "max", "min", "gcd",
    "lcm", "re", "im", "conj", "det",
];

/// True when `name` is a function with a known meaning.
pub fn is_known(name: &str) -> bool {
    KNOWN.contains(&name)
}

/// Maps a written function name (LaTeX command or plain word) to its canonical name.
pub fn canonical(name: &str) -> Option<&'static str> {
    let canonical = match name {
        "sin" => "sin",
        "cos" => "cos",
        "tan" | "tg" => "tan",
        "sec" => "sec",
        "csc" | "cosec" => "csc",
        "cot" | "ctg" => "cot",
        "arcsin" | "asin" => "arcsin",
        "arccos" | "acos" => "arccos",
        "arctan" | "atan" => "arctan",
        "arcsec" => "arcsec",
        "arccsc" => "arccsc",
        "arccot" => "arccot",
        "sinh" => "sinh",
        "cosh" => "cosh",
        "tanh" => "tanh",
        "ln" => "ln",
        "log" | "lg" => "log",
        "exp" => "exp",
        "sqrt" => "sqrt",
        "abs" => "abs",
        "floor" | "lfloor" => "floor",
        "ceil" | "lceil" => "ceil",
        "max" => "max",
        "min" => "min",
        "gcd" => "gcd",
        "lcm" => "lcm",
        "det" => "det",
        _ => return None,
    };
    Some(canonical)
}
