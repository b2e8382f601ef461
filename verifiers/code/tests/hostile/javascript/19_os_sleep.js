// expect: time_limit
import("qjs:os").then((os) => {
    os.sleep(1e9);
    console.log("ok");
});
