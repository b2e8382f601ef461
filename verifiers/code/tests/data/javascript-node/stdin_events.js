let data = "";
process.stdin.resume();
process.stdin.setEncoding("utf-8");
process.stdin.on("data", (chunk) => { data += chunk; });
process.stdin.on("end", () => {
    const tokens = data.split(/\s+/).filter(Boolean);
    process.stdout.write(tokens.reverse().join(" ") + "\n");
});
