// Transcendental functions agree to 12 significant digits; the last of 17 can differ (QuickJS
// uses wasi-libc's libm, V8 its own port of fdlibm).
const out = [];
for (let i = 1; i <= 40; i++) {
    const x = i * 0.37;
    out.push([Math.sin(x), Math.cos(x), Math.tan(x), Math.exp(x), Math.log(x), Math.sqrt(x), Math.pow(x, 1.7), Math.atan2(x, 2), Math.log10(x), Math.asinh(x)].map((v) => v.toPrecision(12)).join(" "));
}
console.log(out.join("\n"));
