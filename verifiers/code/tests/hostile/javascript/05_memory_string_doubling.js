// expect: runtime_error
let s = "x";
for (;;) s = s + s + "y";
