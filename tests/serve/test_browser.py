"""The page of `polynav serve` in a headless Chromium: the path it draws for a clicked start and
goal is the one `polynav plan` computes for the same query, for each method and smoother picked,
layers hide and show their groups, and the second pane plans the same query with its own method.

Needs selenium (Debian python3-selenium), chromium and chromium-driver (/usr/bin/chromedriver, or
env CHROMEDRIVER), which scripts/setup.sh installs: without them the test fails, it never
skips. The screenshot goes to env POLYNAV_SCREENSHOT if set (docs/images/serve.png is made so),
else to $POLYNAV_ARTEFACTS_DIR/serve.png, else to pytest's tmp dir; the test prints where."""

import json
import os
import pathlib
import shutil

import pytest

from conftest import cli

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import Select, WebDriverWait

CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
BUILD_TIMEOUT = 120  # s: a build on a slow machine
PLAN_TIMEOUT = 60


@pytest.fixture
def browser():
    assert os.path.exists(CHROMEDRIVER), f"no chromedriver at {CHROMEDRIVER} (scripts/setup.sh)"
    options = webdriver.ChromeOptions()
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage",
                     "--window-size=1280,900"):
        options.add_argument(argument)
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    if chromium:
        options.binary_location = chromium
    # The console, so that a script error in the page fails the test.
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        yield driver
        # A refused request is logged as a failed resource: that is the page's business.
        errors = [entry["message"] for entry in driver.get_log("browser")
                  if entry["level"] == "SEVERE"
                  and "Failed to load resource" not in entry["message"]]
        assert not errors, f"the page logged errors: {errors}"
    finally:
        driver.quit()


# --- Helpers -----------------------------------------------------------------------------------

def wait(driver, condition, timeout=PLAN_TIMEOUT, message=""):
    return WebDriverWait(driver, timeout, poll_frequency=0.1).until(condition, message)


def pane_element(driver, pane):
    return driver.find_element(By.ID, pane)


def error_text(driver, pane):
    return driver.find_element(By.ID, f"{pane}-error").get_attribute("textContent")


def wait_built(driver, pane):
    """Waits until the pane's build is ready; fails at once with the page's error if refused."""
    def built(d):
        state = pane_element(d, pane).get_attribute("data-build")
        assert state != "error", f"{pane}: build refused: {error_text(d, pane)}"
        return state == "ready"
    wait(driver, built, BUILD_TIMEOUT, f"{pane}: the build is not ready")


def shown_plan(driver, pane):
    """The plan JSON the pane shows (it sits in a closed <details>: read its textContent)."""
    text = driver.find_element(By.CSS_SELECTOR, f"#{pane} .plan-json").get_attribute("textContent")
    return json.loads(text) if text else None


def drawn_waypoints(driver, pane, kind="planned-path"):
    line = driver.find_element(By.CSS_SELECTOR, f"#{pane} polyline.{kind}")
    return json.loads(line.get_attribute("data-waypoints"))


def svg_of(driver, pane):
    return driver.find_element(By.CSS_SELECTOR, f"#{pane} .picture > svg")


def to_pixel(transform, point):
    """World -> picture pixel, as docs/serve.md gives it."""
    minx, _, _, maxy = transform["world"]
    ox, oy = transform["origin"]
    s = transform["scale"]
    return ox + (point[0] - minx) * s, oy + (maxy - point[1]) * s


def click_world(driver, pane, point):
    """Clicks the pane's picture where the world point is shown."""
    svg = svg_of(driver, pane)
    px, py = to_pixel(json.loads(svg.get_attribute("data-transform")), point)
    # Where that picture pixel is on screen, through the svg's own transform (viewBox and
    # layout), relative to the element's centre: selenium 4.8 offsets are from the centre.
    dx, dy = driver.execute_script(
        """const [svg, x, y] = arguments;
        const p = new DOMPoint(x, y).matrixTransform(svg.getScreenCTM());
        const r = svg.getBoundingClientRect();
        return [p.x - (r.left + r.width / 2), p.y - (r.top + r.height / 2)];""", svg, px, py)
    ActionChains(driver).move_to_element_with_offset(svg, round(dx), round(dy)).click().perform()


def close(a, b, tolerance):
    return abs(a[0] - b[0]) <= tolerance and abs(a[1] - b[1]) <= tolerance


def wait_plan(driver, pane, method, smoother, start, goal, tolerance=0.0):
    """The pane's plan once it is for this method, smoother and query (each end within
    `tolerance`) and its path is drawn."""
    def planned(d):
        assert not error_text(d, pane), f"{pane}: {error_text(d, pane)}"
        plan = shown_plan(d, pane)
        if not plan or plan["method"] != method or plan["smoother"] != smoother:
            return False
        if not close(plan["start"], start, tolerance) or not close(plan["goal"], goal, tolerance):
            return False
        assert plan["status"] == "found", f"{pane}: {plan['status']}: {plan.get('message')}"
        return plan if d.find_elements(By.CSS_SELECTOR, f"#{pane} polyline.planned-path") else False
    return wait(driver, planned, PLAN_TIMEOUT,
                f"{pane}: no {method}/{smoother} path from {start} to {goal}")


def cli_plan(scene, plan, method, smoother):
    """What `polynav plan` gives for the plan's exact start and goal (repr: no digit lost)."""
    (sx, sy), (gx, gy) = plan["start"], plan["goal"]
    args = ["plan", scene, f"--start={sx!r},{sy!r}", f"--goal={gx!r},{gy!r}",
            "--method", method, "--smooth", smoother, "--json"]
    print("polynav", *args)
    code, out, err = cli(*args)
    assert code == 0, err
    lines = out.splitlines()
    assert len(lines) == 1, out
    return json.loads(lines[0])


def assert_same_points(drawn, expected):
    assert len(drawn) == len(expected), (drawn, expected)
    for a, b in zip(drawn, expected):
        assert close(a, b, 1e-9), (a, b)


def assert_like_cli(driver, pane, scene, method, smoother, plan):
    expected = cli_plan(scene, plan, method, smoother)
    assert expected["status"] == plan["status"] == "found"
    assert_same_points(drawn_waypoints(driver, pane), expected["waypoints"])
    assert_same_points(drawn_waypoints(driver, pane, "raw-path"), expected["raw_waypoints"])
    assert_same_points(plan["waypoints"], expected["waypoints"])


def open_warehouse(driver, server):
    """Loads the page and picks the bundled warehouse; its id and POST /api/scene's answer."""
    driver.get(server.url)
    scene = wait(driver, lambda d: d.find_element(By.ID, "scene").is_enabled()
                 and d.find_element(By.ID, "scene"), 30, "the scene list did not load")
    picker = Select(scene)
    ids = [option.get_attribute("value") for option in picker.options]
    warehouse = next(i for i in ids if i.replace("\\", "/").endswith("scenes/warehouse.yaml"))
    picker.select_by_value(warehouse)
    status, answer = server.request("/api/scene", {"scene": warehouse})
    assert status == 200, answer
    return warehouse, answer


def layer_display(driver, element):
    return driver.execute_script("return getComputedStyle(arguments[0]).display", element)


def screenshot_path(tmp_path):
    if os.environ.get("POLYNAV_SCREENSHOT"):
        return pathlib.Path(os.environ["POLYNAV_SCREENSHOT"])
    folder = os.environ.get("POLYNAV_ARTEFACTS_DIR")
    return (pathlib.Path(folder) if folder else tmp_path) / "serve.png"


# --- Tests -------------------------------------------------------------------------------------

def test_clicked_query_plans_as_the_cli(server, browser, tmp_path):
    driver = browser
    scene, answer = open_warehouse(driver, server)
    wait_built(driver, "pane-1")
    query = answer["queries"][0]
    transform = json.loads(svg_of(driver, "pane-1").get_attribute("data-transform"))
    # A click lands on a whole CSS pixel: the page's point is within a few picture pixels.
    tolerance = 6 / transform["scale"]

    click_world(driver, "pane-1", query["start"])
    wait(driver, lambda d: d.find_element(By.ID, "start-text").text != "—", 10,
         "the first click did not set the start")
    click_world(driver, "pane-1", query["goal"])
    plan = wait_plan(driver, "pane-1", "grid", "shortcut", query["start"], query["goal"],
                     tolerance)
    print("page's start", repr(plan["start"]), "goal", repr(plan["goal"]))
    assert_like_cli(driver, "pane-1", scene, "grid", "shortcut", plan)

    # Another method and smoother: the same query, rebuilt and replanned.
    Select(driver.find_element(By.CSS_SELECTOR, "#pane-1 .method")).select_by_value("navmesh")
    Select(driver.find_element(By.CSS_SELECTOR, "#pane-1 .smoother")).select_by_value("funnel")
    wait_built(driver, "pane-1")
    navmesh = wait_plan(driver, "pane-1", "navmesh", "funnel", plan["start"], plan["goal"])
    assert_like_cli(driver, "pane-1", scene, "navmesh", "funnel", navmesh)

    # The discretisation layer hides and shows its group.
    group = driver.find_element(By.CSS_SELECTOR,
                                "#pane-1 .picture > svg > g#graph, #pane-1 .picture > svg > g#grid")
    assert layer_display(driver, group) != "none"
    toggle = driver.find_element(By.ID, "layer-discretisation")
    toggle.click()
    wait(driver, lambda d: layer_display(d, group) == "none", 5, "the layer did not hide")
    toggle.click()
    wait(driver, lambda d: layer_display(d, group) != "none", 5, "the layer did not show")

    path = screenshot_path(tmp_path)
    path.parent.mkdir(parents=True, exist_ok=True)
    assert driver.save_screenshot(str(path))
    print(f"screenshot: {path}")


def test_compare_panes_plan_the_same_query(server, browser):
    driver = browser
    scene, answer = open_warehouse(driver, server)
    driver.find_element(By.ID, "compare").click()
    second = driver.find_element(By.ID, "pane-2")
    wait(driver, lambda d: second.is_displayed(), 5, "the second pane is not shown")
    Select(driver.find_element(By.CSS_SELECTOR, "#pane-2 .method")).select_by_value("visgraph")
    Select(driver.find_element(By.CSS_SELECTOR, "#pane-2 .smoother")).select_by_value("shortcut")
    wait_built(driver, "pane-1")
    wait_built(driver, "pane-2")
    first = driver.find_element(By.ID, "pane-1")
    assert second.rect["x"] >= first.rect["x"] + first.rect["width"], \
        "the panes are not side by side"

    # A query of the scene, picked from the list: both panes plan it.
    Select(driver.find_element(By.ID, "query")).select_by_index(1)
    query = answer["queries"][0]
    grid = wait_plan(driver, "pane-1", "grid", "shortcut", query["start"], query["goal"])
    visgraph = wait_plan(driver, "pane-2", "visgraph", "shortcut", query["start"], query["goal"])
    assert_like_cli(driver, "pane-1", scene, "grid", "shortcut", grid)
    assert_like_cli(driver, "pane-2", scene, "visgraph", "shortcut", visgraph)
    assert drawn_waypoints(driver, "pane-1") != drawn_waypoints(driver, "pane-2")

    # Dragging the goal marker replans both panes, and they end on the same new goal.
    goal = driver.find_element(By.CSS_SELECTOR, "#pane-1 g.marker[data-which=goal]")
    drag = ActionChains(driver).click_and_hold(goal)
    for _ in range(10):  # along the goal's aisle, staying in free space
        drag.move_by_offset(-4, 0)
    drag.release().perform()
    moved = json.loads(driver.find_element(By.ID, "goal-text").get_attribute("data-point"))
    assert not close(moved, query["goal"], 0.1), "the goal did not follow the drag"
    for pane, method in (("pane-1", "grid"), ("pane-2", "visgraph")):
        plan = wait_plan(driver, pane, method, "shortcut", query["start"], moved)
        assert_like_cli(driver, pane, scene, method, "shortcut", plan)


def test_refused_option_shows_the_servers_message(server, browser):
    driver = browser
    open_warehouse(driver, server)
    wait_built(driver, "pane-1")
    driver.find_element(By.CSS_SELECTOR, "#pane-1 .options > summary").click()
    field = driver.find_element(By.ID, "pane-1-opt-grid-resolution")
    assert "cell side" in field.get_attribute("title")
    field.send_keys(Keys.CONTROL, "a")  # typed over: an emptied field goes back to its default
    field.send_keys("-1", Keys.TAB)
    wait(driver, lambda d: pane_element(d, "pane-1").get_attribute("data-build") == "error", 30,
         "the bad option was not refused")
    error = driver.find_element(By.ID, "pane-1-error")
    assert error.is_displayed()
    assert "resolution" in error.text, error.text
