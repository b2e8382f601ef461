// expect: runtime_error
import("qjs:os").then((os) => {
    os.exec(["/bin/sh", "-c", "touch /tmp/referee-pwned"]);
});
