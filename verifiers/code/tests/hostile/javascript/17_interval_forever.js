// expect: time_limit
setInterval(() => {}, 1);
