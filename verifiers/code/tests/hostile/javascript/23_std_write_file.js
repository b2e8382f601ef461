// expect: runtime_error
import("qjs:std").then((std) => {
    const file = std.open("/tmp/referee-pwned", "w");
    if (file === null) throw new Error("cannot open");
    file.puts("pwned");
    file.close();
});
