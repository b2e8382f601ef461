// expect: runtime_error
import("qjs:std").then((std) => {
    const text = std.loadFile("/etc/passwd");
    if (text === null) throw new Error("no /etc/passwd");
    console.log(text);
});
