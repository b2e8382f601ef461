// expect: runtime_error
import("qjs:std").then((std) => {
    console.log("ok");
    std.exit(7);
});
