// expect: runtime_error
import("qjs:std").then((std) => {
    std.out.close();
    console.log("ok");
});
