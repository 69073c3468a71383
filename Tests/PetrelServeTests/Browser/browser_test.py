#!/usr/bin/python3
"""Drives petrel-serve's page in headless Chromium (Debian's chromium,
chromium-driver and python3-selenium): a search, a filter, a preview, a
query error, the keyboard, hostile documents and a narrow window.
Screenshots go to the artifacts folder. Run by ServeBrowserTests with the
server's URL; exits 1 on the first failure, with a screenshot of it."""

import os
import sys
import time

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import StaleElementReferenceException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

url, artifacts = sys.argv[1], sys.argv[2]
os.makedirs(artifacts, exist_ok=True)

options = webdriver.ChromeOptions()
options.binary_location = "/usr/bin/chromium"
for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu", "--window-size=1400,900",
                 "--force-device-scale-factor=1", "--lang=en-US"):
    options.add_argument(argument)
options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
# The page rebuilds its lists on each answer: an element read while it
# does is looked up again.
wait = WebDriverWait(driver, 15, ignored_exceptions=[StaleElementReferenceException])
step = "start"


def shot(name):
    driver.save_screenshot(os.path.join(artifacts, name + ".png"))


def check(condition, message):
    if not condition:
        raise AssertionError(message)


def injected():
    return driver.execute_script("return window.__petrelInjected === undefined ? null : window.__petrelInjected")


def search(text):
    box = driver.find_element(By.ID, "q")
    box.clear()
    box.send_keys(text)
    box.send_keys(Keys.ENTER)


def wait_status(predicate, message):
    try:
        wait.until(lambda d: predicate(d.find_element(By.ID, "status").text))
    except Exception:
        raise AssertionError(message + " (status: " + driver.find_element(By.ID, "status").text + ")")


def hits():
    return driver.find_elements(By.CSS_SELECTOR, "#results li.hit")


try:
    step = "load"
    driver.get(url)
    check(driver.title == "Petrel search", "the title is " + driver.title)
    wait.until(lambda d: "documents" in d.find_element(By.ID, "state").text)
    check(driver.switch_to.active_element.get_attribute("id") == "q", "the search box has no focus on load")
    print("ok: the page loads and shows the index's state")

    step = "search"
    search("petrel")
    wait_status(lambda text: text.startswith("Hits 1"), "no hits for petrel")
    results = hits()
    check(len(results) >= 3, "fewer than 3 hits for petrel")
    first = results[0]
    check(first.find_element(By.CSS_SELECTOR, "h3 button").text != "", "a hit without a title")
    check(first.find_element(By.CSS_SELECTOR, ".path").text.startswith("/"), "a hit without its path")
    check(len(first.find_elements(By.CSS_SELECTOR, ".snippet mark")) >= 1, "a snippet without a marked match")
    check(any(hit.find_element(By.CSS_SELECTOR, ".snippet mark").text.lower().startswith("petrel")
              for hit in results if hit.find_elements(By.CSS_SELECTOR, ".snippet mark")), "no mark says petrel")
    check(any(hit.find_elements(By.CSS_SELECTOR, ".inner") for hit in results), "no hit shows an inner path")
    check("q=petrel" in driver.current_url, "the URL does not keep the query")
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#facets .facet"))
    shot("search")
    print("ok: a search shows hits with snippets, marks and inner paths")

    step = "filter"
    kind_buttons = [b for b in driver.find_elements(By.CSS_SELECTOR, "#facets .facet button") if b.text.startswith("md")]
    check(kind_buttons, "no md button among the kind filters")
    check(kind_buttons[0].find_element(By.CSS_SELECTOR, ".count").text == "1", "the md count is not 1")
    kind_buttons[0].click()
    wait.until(lambda d: len(hits()) >= 1 and all(h.find_element(By.CSS_SELECTOR, ".badge").text == "md" for h in hits()))
    wait.until(lambda d: any(b.get_attribute("aria-pressed") == "true" for b in d.find_elements(By.CSS_SELECTOR, "#facets .facet button")))
    check("kind md" in driver.find_element(By.ID, "active-filters").text, "the active filter is not listed")
    check(driver.find_elements(By.CSS_SELECTOR, ".histogram button"), "no month histogram")
    shot("filter")
    driver.find_element(By.CSS_SELECTOR, "#active-filters button").click()
    wait.until(lambda d: len(hits()) >= 3)
    print("ok: the kind filter narrows the hits and can be removed")

    step = "preview"
    search("petrel")
    wait_status(lambda text: text.startswith("Hits 1"), "no hits for petrel again")
    storm = [h for h in hits() if h.find_element(By.CSS_SELECTOR, ".path").text.endswith("storm.md")]
    check(storm, "storm.md is not among the hits")
    storm[0].find_element(By.CSS_SELECTOR, "h3 button").click()
    wait.until(lambda d: d.find_element(By.ID, "preview").is_displayed())
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#preview-text mark"))
    marks = driver.find_elements(By.CSS_SELECTOR, "#preview-text mark")
    check(len(marks) == 3, "the preview marks %d matches, not 3" % len(marks))
    check(all(m.text.lower() == "petrel" for m in marks), "a mark is not petrel")
    check(driver.find_element(By.ID, "preview-count").text == "Match 1 of 3", "the preview's count: " + driver.find_element(By.ID, "preview-count").text)
    check(driver.find_element(By.ID, "preview-open").get_attribute("href").find("/api/file?path=") > 0, "no link to the file")
    driver.find_element(By.TAG_NAME, "body").click()
    driver.find_element(By.ID, "next-match").click()
    check(driver.find_element(By.ID, "preview-count").text == "Match 2 of 3", "the next match button does not move")
    shot("preview")
    driver.find_element(By.ID, "preview-text").send_keys(Keys.ESCAPE)
    wait.until(lambda d: not d.find_element(By.ID, "preview").is_displayed())
    print("ok: the preview marks every match and walks through them")

    step = "keyboard"
    driver.find_element(By.TAG_NAME, "body").send_keys("/")
    check(driver.switch_to.active_element.get_attribute("id") == "q", "/ does not focus the search box")
    search("petrel")
    wait_status(lambda text: text.startswith("Hits 1"), "no hits for petrel before the keys")
    driver.execute_script("document.activeElement.blur()")
    driver.find_element(By.TAG_NAME, "body").send_keys("j")
    check("selected" in hits()[0].get_attribute("class"), "j does not select the first hit")
    driver.switch_to.active_element.send_keys("j")
    check("selected" in hits()[1].get_attribute("class"), "j does not move to the second hit")
    driver.switch_to.active_element.send_keys("k")
    check("selected" in hits()[0].get_attribute("class"), "k does not move back to the first hit")
    driver.switch_to.active_element.send_keys(Keys.ENTER)
    wait.until(lambda d: d.find_element(By.ID, "preview").is_displayed())
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#preview-text mark"))
    driver.switch_to.active_element.send_keys(Keys.ESCAPE)
    wait.until(lambda d: not d.find_element(By.ID, "preview").is_displayed())
    check("selected" in hits()[0].get_attribute("class"), "Escape loses the selected hit")
    print("ok: /, j, Enter and Escape work")

    step = "hostile"
    search("hostile lantern")
    wait_status(lambda text: text.startswith("Hits 1"), "no hits for the hostile documents")
    check(not driver.find_elements(By.CSS_SELECTOR, "#results script, #results img"), "document text became markup in the results")
    texts = " ".join(h.text for h in hits())
    check("<script>" in texts or "<img" in texts, "the hostile markup is not shown as text")
    hostile = [h for h in hits() if h.find_element(By.CSS_SELECTOR, ".path").text.endswith("hostile.txt")]
    check(hostile, "hostile.txt is not among the hits")
    hostile[0].find_element(By.CSS_SELECTOR, "h3 button").click()
    wait.until(lambda d: "<script>" in d.find_element(By.ID, "preview-text").text)
    check(not driver.find_elements(By.CSS_SELECTOR, "#preview script, #preview img"), "document text became markup in the preview")
    time.sleep(0.3)
    check(injected() is None, "a hostile document ran script: %r" % injected())
    shot("hostile")
    driver.find_element(By.ID, "close-preview").click()
    print("ok: hostile documents stay text")

    step = "error"
    search("storm NEAR(petrel lantern, x)")
    wait.until(lambda d: d.find_element(By.ID, "query-error").is_displayed())
    message = driver.find_element(By.ID, "query-error-message").text
    check("character" in message, "the error does not give its position: " + message)
    check(driver.find_element(By.CSS_SELECTOR, "#query-error-where mark"), "the error's position is not marked")
    check(driver.find_element(By.ID, "q").get_attribute("aria-invalid") == "true", "the box is not marked invalid")
    check(not hits(), "hits remain under a query error")
    shot("error")
    search("storm (petrel")
    wait_status(lambda text: text.startswith("Hits 1"), "a repaired query finds nothing")
    check(driver.find_element(By.ID, "notes").is_displayed(), "the repair of the query is not shown")
    driver.find_element(By.CSS_SELECTOR, "#notes summary").click()
    check("not closed" in driver.find_element(By.ID, "notes-list").text, "the notes do not say what was repaired")
    print("ok: a query error shows where it is (" + message + "), a repaired query says what was repaired")

    step = "narrow"
    driver.set_window_size(420, 900)
    search("petrel")
    wait_status(lambda text: text.startswith("Hits 1"), "no hits in a narrow window")
    width = driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
    check(width[0] <= width[1] + 1, "the page scrolls sideways in a narrow window: %r" % width)
    shot("narrow")
    print("ok: a narrow window has one column and no sideways scrolling")

    step = "console"
    # The query error's 400 is a network entry the test asked for; script
    # errors and policy violations are the ones that count.
    problems = [entry for entry in driver.get_log("browser") if entry["level"] == "SEVERE"
                and not (entry.get("source") == "network" and "/api/search?q=storm+NEAR" in entry["message"])]
    check(not problems, "the console has errors: %r" % problems)
    print("ok: no console error, no policy violation")
    print("browser test passed")
except Exception as error:
    try:
        shot("failure-" + step)
    except Exception:
        pass
    print("FAILED at %s: %s %r" % (step, type(error).__name__, error), file=sys.stderr)
    try:
        print("status: " + driver.find_element(By.ID, "status").text, file=sys.stderr)
        print("preview: " + driver.find_element(By.ID, "preview-text").text[:300], file=sys.stderr)
        print("console: %r" % driver.get_log("browser"), file=sys.stderr)
    except Exception:
        pass
    driver.quit()
    sys.exit(1)
driver.quit()
