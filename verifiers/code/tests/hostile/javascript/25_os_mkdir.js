// expect: runtime_error
import("qjs:os").then((os) => {
    const status = os.mkdir("/tmp/referee-dir");
    if (status !== 0) throw new Error("mkdir failed: " + status);
});
