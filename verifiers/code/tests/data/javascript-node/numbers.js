const xs = [0.1, 1 / 3, 2 / 3, 123.456, 1e-7, 5e-324, 1.7976931348623157e308, 2 ** 53 + 2, -1.5, 0.000001];
for (const x of xs) console.log(x, x.toFixed(3), x.toPrecision(4), x.toExponential(2), String(x * 10));
console.log(parseInt("0x1f"), parseInt("12px"), parseFloat("3.14abc"), Number(""), Number(" 42 "), (255).toString(2), (255).toString(36));
console.log(Math.max(), Math.min(), Math.round(2.5), Math.round(-2.5), Math.trunc(-4.7), Math.sign(-3), Math.hypot(3, 4), Math.cbrt(27));
console.log(7 % -3, -7 % 3, 2 ** -1, 0.1 * 3, 9007199254740993, 1 / 0, -1 / 0, 0 / 0);
