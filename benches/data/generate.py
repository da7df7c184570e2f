#!/usr/bin/env python3
"""Generate benches/data/support-labelled.jsonl: 600 labelled support tickets.

Standard library only and deterministic (fixed seed): running it twice writes the same
bytes. Usage, from the repository root:

    python3 benches/data/generate.py

Each ticket is composed from independent latent factors, and its labels are those factors:

* intent   - what the customer wants (one of the `intent` options in questions.yaml);
             chosen first, uniformly, and expressed by a "core" paraphrase template.
* urgency  - the consequence situation (0..4, the `urgency` rubric level); chosen from
             per-intent weights, and expressed by the core template's scope (a question,
             a single-user problem, a company-wide outage) plus a consequence sentence.
* escalate - whether the customer is upset *and* demands a human/manager; expressed by a
             frustration sentence plus a demand sentence. The negative side deliberately
             includes upset customers who demand nothing, calm customers who mention a
             manager in another sense, and explicit "no need to escalate" negations.
* product/feature, item, amounts, customer details and noise (greetings, sign-offs,
  order numbers, account IDs) vary independently of the labels.

Templates avoid label keywords where they would give the answer away: refund tickets that
never say "refund", billing tickets that say "I don't need a refund", technical tickets that
mention logging in fine, and cross-intent distractor sentences that mention another intent's
vocabulary in passing without changing what the customer wants.
"""

import json
import random
import sys
from collections import Counter
from pathlib import Path

SEED = 20250305
COUNT = 600
MESSAGES_SHARE = 0.10
MIN_CHARS, MAX_CHARS = 150, 900
HERE = Path(__file__).resolve().parent
OUT = HERE / "support-labelled.jsonl"

INTENTS = ["refund", "billing", "technical", "account_access", "shipping", "feedback"]

# Urgency weights per intent, levels 0..4. Feedback never needs anything done (level 0);
# shipping and billing problems here never reach a many-user outage (level 4).
URGENCY_WEIGHTS = {
    "refund":         [0.15, 0.25, 0.30, 0.22, 0.08],
    "billing":        [0.32, 0.30, 0.22, 0.16, 0.00],
    "technical":      [0.00, 0.22, 0.26, 0.22, 0.30],
    "account_access": [0.10, 0.20, 0.27, 0.21, 0.22],
    "shipping":       [0.16, 0.30, 0.32, 0.22, 0.00],
    "feedback":       [1.00, 0.00, 0.00, 0.00, 0.00],
}
ESCALATE_RATE = 0.33  # among tickets whose core allows an upset customer; ~30% overall

# --------------------------------------------------------------------------- slot values

NAMES = [
    "Priya Raman", "Tom Becker", "Aiko Tanaka", "Luis Ortega", "Grace Okafor", "Mateo Silva",
    "Hannah Schultz", "Omar Haddad", "Chloe Martin", "Dmitri Volkov", "Fatima Zahra", "Jonas Berg",
    "Sofia Rossi", "Kwame Mensah", "Emily Clarke", "Ravi Iyer", "Lena Novak", "Marcus Reid",
    "Yuki Sato", "Ana Costa", "Ben Carter", "Ingrid Lund", "Samir Patel", "Olivia Brooks",
    "Nora Fischer", "Diego Ramos", "Mei Lin", "Patrick Doyle", "Zainab Ali", "Erik Johansson",
]
COMPANIES = [
    "Larkspur Design", "Northgate Dental", "Bluefin Logistics", "Cedar & Co", "Brightpath Tutors",
    "Orbit Studio", "Harbour Bakery", "Summit Legal", "Kestrel Analytics", "Maple Street Clinic",
    "Tidewater Events", "Quill Publishing",
]
AGENTS = ["Miguel", "Sara", "Jonah", "Aisha", "Pete", "Mariko", "Leon"]
SAAS_PLANS = ["starter", "pro", "business", "enterprise"]
COUNTRIES = ["US", "GB", "DE", "FR", "NL", "ES", "CA", "AU", "IE", "SE", "IN", "BR"]

# (feature, task blocked by it, symptom, error message, screen)
FEATURES = [
    ("CSV export", "export our monthly report", "the file downloads completely empty",
     "Export failed (code 500)", "the Reports page"),
    ("calendar sync", "schedule client meetings", "new events never show up in Google Calendar",
     "Sync error: token invalid", "the Calendar settings"),
    ("the reporting dashboard", "review this week's numbers", "the charts spin and never load",
     "Request timed out", "the Dashboard"),
    ("the invoice generator", "send invoices to our clients", "every PDF comes out blank",
     "Template rendering failed", "the Invoices tab"),
    ("file uploads", "share designs with the client", "uploads stall at 99% and then vanish",
     "Upload failed: network error", "the Files page"),
    ("the Slack integration", "get alerts to the team", "notifications stopped arriving in our channel",
     "Integration disconnected", "the Integrations page"),
    ("webhooks", "sync orders to our warehouse system", "about one in five events never arrives",
     "HTTP 504 Gateway Timeout", "the Developer settings"),
    ("search", "find client records", "results come back empty even for exact names",
     "Search index unavailable", "the Search page"),
    ("the mobile app", "check in on site visits", "the app closes as soon as I open the project list",
     "Unexpected error", "the project list"),
    ("the task board", "plan the sprint", "cards snap back to their old column after I move them",
     "Conflict: stale version", "the Board view"),
]
ALTERNATIVES = ["the web version", "the mobile app", "the desktop app", "a spreadsheet", "a colleague's login"]
ADDONS = ["the Advanced Reporting add-on", "an extra storage pack", "the Priority Support add-on",
          "three extra seats", "the AI Assistant add-on", "a second workspace"]
MISSING = ["offline mode", "a Gantt view", "two-way Outlook sync", "custom invoice templates",
           "bulk import from Excel", "multi-currency invoices"]

# (item, damage description)
ITEMS = [
    ("standing desk frame", "one of the legs is bent and the motor rattles"),
    ("ergonomic chair", "the gas lift is cracked and the armrest snapped off"),
    ("USB-C dock", "the casing is split and it won't power on"),
    ("monitor arm", "the clamp arrived snapped in half"),
    ("mechanical keyboard", "several keys are missing and the cable is frayed"),
    ("4K webcam", "the lens is scratched right across the middle"),
    ("label printer", "the paper feed is broken and it jams on every label"),
    ("barcode scanner", "the trigger is stuck and the screen is cracked"),
    ("noise-cancelling headset", "the headband is snapped"),
    ("card reader", "the display is cracked and it won't pair"),
]
CARRIERS = ["DHL", "UPS", "FedEx", "the courier", "Royal Mail", "DPD"]
SSO_ERRORS = ["SAML response invalid", "Invalid audience", "User not provisioned", "IdP certificate expired"]

DEADLINES = [
    "our board report is due at 4pm today",
    "I'm presenting to a client in two hours",
    "payroll has to be approved by 5pm today",
    "the quarter closes tonight",
    "our campaign goes live this afternoon",
    "the auditors arrive first thing tomorrow and need this before end of day",
    "a client is waiting on this before they sign today",
]
FINANCE_DEADLINES = [
    "the quarter closes tonight",
    "the auditors arrive first thing tomorrow and need this before end of day",
    "our accountant files the VAT return today",
    "finance pays suppliers this afternoon and needs the paperwork first",
]

# --------------------------------------------------------------------------- core templates
# Each core: (text, urgency levels it can carry, mood, tags). mood "calm" means the text is
# positive or a neutral question, so an angry tone would not fit it; tags let consequence
# sentences that only make sense for some cores (a suspended account) find them.

C = lambda text, levels, mood="any", tags=(): (text, tuple(levels), mood, tuple(tags))

CORES = {
    "refund": [
        C("I'd like a refund for the {amount} charge from {date}. {refund_reason}", [1, 2, 3]),
        C("I was billed {amount} for {addon}, which I never ordered, and I'd like that reversed.", [1, 2, 3]),
        C("I cancelled my {plan_title} subscription on {date} but was still charged {amount} afterwards. "
          "Please put that money back on my card.", [1, 2, 3]),
        C("I upgraded to {plan2_title} by mistake and haven't used any of the extra features. Could you "
          "return the payment and move me back to {plan_title}?", [1, 2, 3]),
        C("The {item} I sent back reached your warehouse on {date} according to the tracking, but the "
          "{amount} still hasn't been credited back to my card.", [1, 2, 3]),
        C("My card was charged twice for the same invoice ({invoice}). Please send the duplicate "
          "payment back to the card it came from.", [1, 2, 3]),
        C("The product doesn't do what the sales page promised - there's no {missing}. I'm still within "
          "the 30-day guarantee and want my money back.", [1, 2, 3]),
        C("Our team shrank and we removed {k} seats part-way through the annual term. Is it possible to "
          "get the unused portion of what we paid returned?", [0, 1, 2]),
        C("I forgot to cancel the free trial and got charged {amount}. I haven't logged in since the "
          "trial ended - could you reverse the charge?", [1, 2, 3]),
        C("What's your policy on returning money for the unused months if we cancel an annual plan "
          "early? We'd like to cancel at the end of this month and get the remainder back.", [0, 1], "calm"),
        C("I cancelled order {order} an hour after placing it, before it shipped, and I'd like the "
          "{amount} to go back to my original payment method.", [1, 2, 3]),
        C("Your system has charged our company card {k} times in the last hour for the same "
          "renewal, and new charges keep appearing. We need these charges stopped and the money "
          "returned.", [4]),
        C("A glitch in your renewal run billed every one of our {n} member accounts twice this morning, "
          "and the duplicate charges are still going out. Please reverse all of them.", [4]),
    ],
    "billing": [
        C("I don't need a refund, just an explanation of the {amount} charge on invoice {invoice}.", [0, 1, 2]),
        C("Could you add our VAT number ({vat}) to invoice {invoice} and reissue it?", [0, 1, 2, 3]),
        C("I'm trying to update the card on file before it expires, but the form keeps saying the card "
          "was declined. The card works everywhere else.", [1, 2, 3], tags=["payment"]),
        C("What happens to our bill if we move from {plan_title} to {plan2_title} mid-cycle? Is the "
          "difference prorated onto the next invoice?", [0], "calm"),
        C("Our latest invoice lists {n} seats, but only {m} people actually use the workspace. Can you "
          "explain how seats are counted so I can tell our finance team?", [0, 1, 2]),
        C("Please change the billing address and company name on our invoices to {company}, "
          "{street}.", [0, 1, 3]),
        C("The price of my renewal went up from {amount} to {amount2}. I'm not asking for anything "
          "back, I'd just like to understand why the plan costs more now.", [0, 1, 2]),
        C("We'd like to stop paying by card and switch to annual invoicing with bank transfer. Is that "
          "possible on the {plan_title} plan?", [0, 1], "calm"),
        C("We were charged in USD, but our account is set to EUR. Can you switch the billing currency "
          "for future invoices?", [0, 1, 2]),
        C("Our payment failed this month and the account now shows a 'past due' banner. How can I retry "
          "the payment with a different card?", [1, 2, 3], tags=["payment"]),
        C("There are two charges of {amount} this month. Was my plan price changed, or is one of them a "
          "mistake? If it's a mistake a credit on next month's bill is fine.", [0, 1, 2]),
    ],
    "technical": [
        C("{feature_cap} stopped working after yesterday's update: {symptom}.", [1, 2, 3]),
        C("Every time I try to {task}, I get the error '{error}'.", [1, 2, 3]),
        C("{feature_cap} has been failing on and off since {date} - {symptom}.", [1, 2, 3]),
        C("I can log in fine, but once I'm in, {screen} is completely blank.", [1, 2, 3]),
        C("The changes I made yesterday in {screen} aren't there this morning. It looks like the save "
          "silently failed.", [1, 2, 3]),
        C("{screen_cap} just spins forever. I've tried another browser and cleared the cache, same "
          "result.", [1, 2, 3]),
        C("The totals in {screen} don't match the raw export - something is off with the calculation.", [1, 2, 3]),
        C("I'm not after a refund, I just need {feature} working again - {symptom}.", [1, 2, 3]),
        C("Since {time} none of our {n} users can load the app - it's a blank page for everyone.", [4]),
        C("Every request to your orders API has returned '{error}' since {time}. Our checkout depends "
          "on it, so none of our customers can pay right now.", [4]),
        C("Your update this morning broke {feature} for our whole organisation; nobody on our {n}-person "
          "team can {task}.", [4]),
    ],
    "account_access": [
        C("I can't log in - it says my password is incorrect, even straight after resetting it.", [1, 2, 3]),
        C("The password reset email never arrives. I've tried several times and checked spam.", [1, 2, 3]),
        C("I got a new phone and my authenticator app didn't transfer, so I can't get past the "
          "two-factor screen anymore.", [1, 2, 3]),
        C("Our previous admin left the company and we need workspace ownership transferred to me. He "
          "isn't reachable any more.", [0, 1, 2, 3]),
        C("My account was locked after too many attempts and the unlock link has already expired.", [1, 2, 3]),
        C("I'd like to change the email address I sign in with - I no longer have access to the old "
          "mailbox.", [0, 1, 2]),
        C("Signing in with SSO fails for me with '{sso_error}'. Everyone else on my team seems fine.", [1, 2, 3]),
        C("I'm not sure whether I signed up with Google or with an email and password, and neither "
          "lets me in.", [1, 2, 3]),
        C("I need to get into my account to download last month's invoice, but the login page just "
          "reloads every time I submit my details.", [1, 2, 3]),
        C("How do I turn on two-factor authentication for everyone in our workspace? We'd like to "
          "make it mandatory.", [0], "calm"),
        C("I just got an alert about a sign-in from a country I've never been to, and now my password "
          "doesn't work. Someone may be in our admin account right now, with our company card and "
          "customer data.", [4]),
        C("SSO stopped working after this morning's change and nobody in our company ({n} people) can "
          "sign in.", [4]),
        C("In the last hour {k} of our users have had their passwords changed without doing it "
          "themselves, and they're locked out.", [4]),
    ],
    "shipping": [
        C("Order {order} ({item}) was due on {date}, but the tracking hasn't updated since.", [1, 2, 3]),
        C("{carrier_cap} marked order {order} as delivered, but nothing arrived and the neighbours "
          "haven't got it either.", [1, 2, 3]),
        C("The {item} arrived damaged - {damage}. Could you send a replacement?", [1, 2, 3]),
        C("I ordered the {item} (order {order}) and received a {item2} instead. Could you send the "
          "right one?", [1, 2, 3]),
        C("Can I change the delivery address on order {order}? It hasn't shipped yet.", [0, 1, 3]),
        C("My parcel is held at customs and they want import fees that weren't mentioned at checkout. "
          "Who is supposed to pay these?", [1, 2, 3]),
        C("Only two of the three boxes for order {order} turned up - the {item} is missing.", [1, 2, 3]),
        C("It's been two weeks since I ordered the {item} and it still says 'processing'. When will it "
          "actually ship?", [0, 1, 2, 3]),
        C("I'm not after my money back, I just need the {item} from order {order} to actually arrive. "
          "The tracking has said 'in transit' for ten days.", [1, 2, 3]),
        C("Do you ship the {item} to {country_name}, and roughly how long does delivery take? I'd like "
          "to order one next month.", [0], "calm"),
    ],
    "feedback": [
        C("Just wanted to say that {praise}.", [0], "calm"),
        C("A feature request: it would be great to have {wish}.", [0]),
        C("A small suggestion - {suggestion}.", [0]),
        C("The new {area} redesign is harder to use than the old one; {redesign_issue}. It's not a bug, "
          "just my two cents.", [0]),
        C("Please pass my thanks on to {agent}, who sorted out my problem in a few minutes last week.", [0], "calm"),
        C("Have you considered {wish}? It would save our team a lot of time.", [0]),
        C("I wanted to share that your new pricing feels unfair to small teams like ours. I'm not "
          "asking for any change to my own account, but I think you should know.", [0]),
        C("Everything works fine, but the onboarding could be clearer: {onboarding_issue}.", [0]),
        C("We've used the product for {years} years now and wanted to share what's working well: "
          "{praise}.", [0], "calm"),
        C("The export bug I reported last month is fixed now - thanks! One more idea while I'm here: "
          "{wish}.", [0], "calm"),
    ],
}

PRAISE = [
    "the new editor is fantastic", "your support team has been brilliant this year",
    "the mobile app has really improved since the last update", "the new reports save me an hour a week",
    "onboarding our new hires was painless", "the Slack integration is exactly what we needed",
]
WISHES = [
    "a dark mode", "keyboard shortcuts for inserting tables", "recurring tasks with custom intervals",
    "an export to Google Sheets", "a way to archive old projects in bulk", "per-project colour labels",
    "two-way Outlook sync",
]
SUGGESTIONS = [
    "group the onboarding steps by role", "show the invoice total on the list view",
    "let us pin favourite reports to the sidebar", "add a 'snooze' button to notifications",
    "make the search box remember recent queries",
]
AREAS = ["dashboard", "settings", "sidebar", "calendar", "reports"]
REDESIGN_ISSUES = [
    "I now need three clicks to get to things that used to take one",
    "the contrast is so low I struggle to read the labels",
    "the buttons moved around and my team keeps clicking the wrong one",
]
ONBOARDING_ISSUES = [
    "our new hires didn't know where to find the templates",
    "the checklist doesn't say which steps only admins can do",
    "the welcome video is out of date",
]
REFUND_REASONS = [
    "I never used the service after that date.",
    "The plan was supposed to be cancelled by then.",
    "It was charged after I'd already downgraded.",
    "I was told on chat that it wouldn't be charged.",
]
COUNTRY_NAMES = ["Norway", "Switzerland", "Iceland", "Mexico", "South Africa", "Japan"]

# --------------------------------------------------------------------------- urgency sentences
# Keyed by level; each entry is (text, intents it fits or None for any, core tag it needs).

U = lambda text, intents=None, needs=None: (text, intents, needs)
MONEY = ("refund", "billing")
BLOCKING = ("technical", "account_access")

URGENCY = {
    0: [
        U("No rush at all - whenever someone has a moment is fine."),
        U("There's no deadline on this, I'm just planning ahead."),
        U("Nothing is affected right now; I'm only asking so I know for the future."),
        U("Please answer whenever it's convenient."),
        U("It isn't time-sensitive in any way."),
        U("Not urgent! Just curious."),
        U("Take your time with this one."),
    ],
    1: [
        U("It's only a minor annoyance, and I can work around it for now.", BLOCKING),
        U("It's not blocking anything - I'm using {alt} in the meantime.", BLOCKING),
        U("It would be nice to have it sorted this week, but I can manage until then."),
        U("Low priority on my end; it's more of an inconvenience than a real problem."),
        U("I can live with it for a few days, I just wanted to flag it."),
        U("Not urgent - I'm getting by without it for now.", BLOCKING + ("shipping",)),
        U("It's a small amount, so there's no big hurry, but I'd like it corrected.", MONEY),
        U("I don't need it right away, so a few more days is fine.", ("shipping",)),
    ],
    2: [
        U("I'm stuck until this is fixed, though there's no hard deadline.", BLOCKING),
        U("I can't get on with my work until this is sorted.", BLOCKING),
        U("This is stopping me from being able to {task}, although nothing is due immediately.", ("technical",)),
        U("There's no workaround that I can find, so I'm stuck for now.", BLOCKING),
        U("It's holding me up - could someone look at it in the next day or so?", BLOCKING + ("shipping",)),
        U("It's a noticeable amount for me, so I'd like it sorted this week.", MONEY),
        U("There's no hard deadline, but it isn't a trivial sum and I'd like it dealt with in the next few days.", MONEY),
        U("This does need fixing, though it doesn't have to be today.", MONEY),
        U("I've been waiting on it to set up my home office, so it's holding me up, but there's no fixed date.", ("shipping",)),
        U("I can't start using it until it's here, so I'm a bit stuck, though nothing hangs on a particular day.", ("shipping",)),
    ],
    3: [
        U("I need this resolved today - {deadline}.", BLOCKING + ("billing",)),
        U("This has to be sorted before end of day: {deadline}.", BLOCKING + ("billing",)),
        U("It can't wait until tomorrow, because {deadline}.", BLOCKING + ("billing",)),
        U("The duplicate money has overdrawn my account and the bank is charging me fees, so I need it back today.", ("refund",)),
        U("My rent is due tomorrow morning and I need that money back in my account today.", ("refund",)),
        U("Our finance team closes the books tonight, so this needs to be settled today.", MONEY),
        U("If it isn't sorted by tonight the account gets suspended, and we can't afford that.", ("billing",), "payment"),
        U("It's for a trade show that opens tomorrow morning, so I need to know today whether it will make it.", ("shipping",)),
        U("It's a birthday present for tomorrow, so I really need an answer today.", ("shipping",)),
        U("I'm moving out of this address tomorrow, so it has to be sorted today.", ("shipping",)),
        U("It's equipment for a new hire who starts tomorrow; I need this resolved today.", ("shipping",)),
    ],
    4: [
        U("This is affecting all {n} people on our team right now.", BLOCKING),
        U("It's still happening as we speak."),
        U("We're losing money every minute this continues.", ("technical", "refund")),
        U("Our whole operation is at a standstill.", BLOCKING),
        U("Please treat this as an emergency."),
        U("Our own customers are already complaining.", ("technical",)),
        U("Anyone could be reading our customer data right now.", ("account_access",)),
        U("Every new charge is coming straight out of our operating account as we speak.", ("refund",)),
        U("Payroll and supplier payments go out of that account today and it's being drained.", ("refund",)),
    ],
}
# Level-0 sentences that would contradict an angry tone.
CALM_ONLY_URGENCY = {"Not urgent! Just curious.", "Take your time with this one.",
                     "Please answer whenever it's convenient."}

# --------------------------------------------------------------------------- tone / escalation

FRUSTRATION = [
    "This is the third time I'm writing about this and I'm honestly fed up.",
    "Frankly, this is unacceptable.",
    "I've been going round in circles with your support for a week now.",
    "I'm losing my patience with this.",
    "Your canned replies are not helping in the slightest.",
    "I'm extremely frustrated - nobody seems to read what I write.",
    "This is ridiculous.",
    "I am furious about how this has been handled.",
]
DEMANDS = [
    "I want to speak to a manager.",
    "Get me a real person, not another bot.",
    "Escalate this to a supervisor today.",
    "I demand a call from someone in charge.",
    "Put me through to a human who can actually fix this.",
    "I want your head of support to contact me directly.",
    "Stop sending me templates - I want to talk to an actual human being.",
    "I'm done with the chatbot. Let me speak to a person now.",
]
# Negative side of escalate: upset but no demand.
UPSET_NO_DEMAND = [
    "Honestly, I'm pretty annoyed about this.",
    "This is really disappointing - please just fix it.",
    "I'm frustrated, but I don't need a manager, I just want it sorted.",
    "This is completely unacceptable and I'm not happy.",
    "I've lost a lot of time over this and I'm fed up.",
    "It's the second time this has happened, which is annoying.",
]
# Negative side of escalate: calm mentions of people / managers in another sense.
PERSON_MENTIONS = [
    "My account manager, {cs_name}, told me to write in here.",
    "I've copied my manager on this email for visibility.",
    "My manager asked me to look into this for the team.",
    "No need to escalate this or involve a manager - a reply by email is fine.",
    "Happy to talk it through on a call if that's easier, but email works too.",
    "I'm the office manager, so please reply to me rather than the account owner.",
    "Please pass my thanks to your team lead, the last agent was very helpful.",
]
POLITE = [
    "Thanks in advance for your help.",
    "I appreciate you looking into this.",
    "Thanks for your help!",
    "Many thanks.",
]

# --------------------------------------------------------------------------- distractors
# Sentences mentioning another intent's vocabulary without changing the intent.

DISTRACTORS = {
    "refund": [
        "While I was looking into this I also reset my password, but that part is sorted now.",
        "The app itself works fine, by the way - this is only about the money.",
        "Your delivery of the earlier order was quick, no complaints there.",
    ],
    "billing": [
        "I've already logged in and checked the billing page myself.",
        "The product itself is great, this is purely about the paperwork.",
        "I reset my password last week, in case that matters for the card form.",
    ],
    "technical": [
        "Billing is all up to date on our side, so it isn't a payment issue.",
        "I've already tried logging out and back in.",
        "I don't want any money back, I just need it working.",
    ],
    "account_access": [
        "I'm on the {plan_title} plan and my invoice is paid, so it's not a billing issue.",
        "I'm not asking for a refund or anything, I just need to get in.",
        "The app was working perfectly before this.",
    ],
    "shipping": [
        "I've paid for the order and the payment went through fine.",
        "My account login works, so I can see the order page - it just doesn't help.",
        "I don't want a refund, I'd rather have the item.",
    ],
    "feedback": [
        "There's nothing wrong with my account, this is just an idea.",
        "No need to change anything on my invoice or plan.",
        "I'm not reporting a bug - everything works.",
    ],
}

# --------------------------------------------------------------------------- subjects / noise

SUBJECTS = {
    "refund": ["Charge I want back", "Money back please", "Duplicate payment", "Charged after cancelling",
               "Reverse a charge", "Refund request", "Unused seats", "Returned item - no credit yet"],
    "billing": ["Question about my invoice", "Invoice correction", "Card update fails", "Billing question",
                "VAT number on invoice", "Price change at renewal", "Payment method", "Seats on invoice"],
    "technical": ["{feature_cap} not working", "Error: {error}", "Bug after update", "Something broke",
                  "{screen_cap} won't load", "Data missing", "App crashing"],
    "account_access": ["Can't log in", "Locked out", "2FA problem", "Password reset not arriving",
                       "Ownership transfer", "Login email change", "SSO sign-in"],
    "shipping": ["Where is order {order}?", "Delivery problem", "Damaged item", "Wrong item received",
                 "Order {order}", "Parcel stuck at customs", "Missing box"],
    "feedback": ["Feedback", "Suggestion", "Feature request", "Thank you", "A thought on the redesign",
                 "Idea for the product"],
}
GENERIC_SUBJECTS = ["Help please", "Question", "Quick one", "Re: ticket {ref}", "Following up",
                    "Issue with my account", "Hello", "Need assistance"]
URGENT_SUBJECT_PREFIX = ["URGENT: ", "Emergency: ", "Critical - "]
UPSET_SUBJECTS = ["Complaint", "Still not fixed", "Third email about this", "Very disappointed",
                  "No reply to my last ticket"]

GREETINGS = ["Hi,", "Hello,", "Hello team,", "Good morning,", "Hey there,", "Hi support,", "Dear support team,"]
SIGNOFFS = ["Thanks,\n{first}", "Best regards,\n{name}", "Cheers,\n{first}", "Regards,\n{name}\n{company}",
            "Kind regards,\n{name}", "{first}"]
NOISE = [
    "Account ID: {acct}.", "Ticket ref {ref}.", "Sent from my iPhone", "Hope you're having a good week.",
    "I'm on the {plan_title} plan, in case that helps.", "Order number for reference: {order}.",
    "We're a team of {m} at {company}.",
]
ASSISTANT_ACKS = [
    "Thanks for reaching out! Could you share the email address on the account so I can look into this?",
    "I'm sorry to hear that. Let me check on this for you.",
    "Thanks for the details - I've passed this to the relevant team. Is there anything else I should know?",
    "Thanks for contacting us. Can you tell me a bit more about what you're seeing?",
    "Got it. I'm looking into it now.",
]
ASSISTANT_FOLLOWUPS = [
    "Have you tried signing out and back in, or using a different browser?",
    "Could you send a screenshot so I can pass it on?",
    "I've added a note to your ticket and our team will be in touch.",
]


def cap(s):
    return s[:1].upper() + s[1:]


def make_context(rng, intent, level):
    feature, task, symptom, error, screen = rng.choice(FEATURES)
    (item, damage), (item2, _) = rng.sample(ITEMS, 2)
    name = rng.choice(NAMES)
    plan, plan2 = rng.sample(["starter", "pro", "business"], 2)
    if level == 4:
        n = rng.choice([25, 40, 60, 85, 120, 200, 350])
        plan = rng.choice(["business", "enterprise"])
    else:
        n = rng.choice([5, 8, 10, 12, 15, 20])
    base = rng.choice([9, 15, 29, 49, 79, 99, 149, 199, 349, 588])
    ctx = {
        "feature": feature, "feature_cap": cap(feature), "task": task, "symptom": symptom,
        "error": error, "screen": screen, "screen_cap": cap(screen),
        "item": item, "damage": damage, "item2": item2,
        "name": name, "first": name.split()[0], "company": rng.choice(COMPANIES),
        "agent": rng.choice(AGENTS), "cs_name": rng.choice(["Dana", "Rob", "Ines", "Kofi", "Maja"]),
        "plan": plan, "plan_title": cap(plan), "plan2_title": cap(plan2),
        "amount": f"${base}.00", "amount2": f"${round(base * rng.choice([1.2, 1.4, 1.5]))}.00",
        "order": f"#{rng.randint(10000, 99999)}", "invoice": f"INV-{rng.randint(10000, 99999)}",
        "ref": f"{rng.randint(100000, 999999)}", "acct": f"acc_{rng.randint(10**7, 10**8 - 1)}",
        "vat": f"{rng.choice(['DE', 'FR', 'NL', 'IE'])}{rng.randint(10**8, 10**9 - 1)}",
        "street": f"{rng.randint(2, 180)} {rng.choice(['Harbour Street', 'Mill Lane', 'Station Road', 'Elm Avenue'])}",
        "date": rng.choice(["Monday", "Tuesday", "the 2nd", "the 5th", "the 14th", "March 3rd", "last Friday"]),
        "time": rng.choice(["09:00", "about 14:20 UTC", "this morning", "11:30", "lunchtime"]),
        "n": n, "m": rng.randint(3, 9), "k": rng.randint(3, 9), "years": rng.randint(2, 7),
        "alt": rng.choice(ALTERNATIVES),
        "deadline": rng.choice(FINANCE_DEADLINES if intent == "billing" else DEADLINES),
        "carrier_cap": cap(rng.choice(CARRIERS)), "sso_error": rng.choice(SSO_ERRORS),
        "missing": rng.choice(MISSING), "addon": rng.choice(ADDONS),
        "refund_reason": rng.choice(REFUND_REASONS), "country_name": rng.choice(COUNTRY_NAMES),
        "praise": rng.choice(PRAISE), "wish": rng.choice(WISHES), "suggestion": rng.choice(SUGGESTIONS),
        "area": rng.choice(AREAS), "redesign_issue": rng.choice(REDESIGN_ISSUES),
        "onboarding_issue": rng.choice(ONBOARDING_ISSUES),
    }
    return ctx


def customer(rng, intent, ctx):
    c = {"name": ctx["name"]}
    if intent == "shipping":
        c["plan"] = "consumer"
        c["country"] = rng.choice(COUNTRIES)
    else:
        c["plan"] = ctx["plan"]
        if ctx["plan"] in ("business", "enterprise"):
            c["seats"] = max(ctx["n"], ctx["m"]) + rng.randint(0, 20)
    c["tenure_months"] = rng.randint(0, 60)
    if rng.random() < 0.4:
        c["email"] = ctx["first"].lower() + "@" + ctx["company"].split()[0].lower() + ".example"
    return c


def pick_urgency_sentence(rng, intent, level, angry, tags):
    pool = [t for t, ok, needs in URGENCY[level]
            if (ok is None or intent in ok) and (needs is None or needs in tags)]
    if angry:
        pool = [t for t in pool if t not in CALM_ONLY_URGENCY]
    return rng.choice(pool)


def build(rng, intent, level, escalate, core, ctx, messages):
    """Return (state, text_length)."""
    f = lambda s: s.format(**ctx)
    text, _, mood, tags = core
    parts_core = [f(text)]
    if rng.random() < 0.35:
        money = ("refund", "money back")
        pool = [d for d in DISTRACTORS[intent]
                if not (any(w in d for w in money) and any(w in text for w in money))]
        parts_core.append(f(rng.choice(pool)))
        if rng.random() < 0.3:
            parts_core.reverse()

    urgency_parts = []
    # Level 0 cores are questions on their own; the sentence is often but not always there.
    if level > 0 or rng.random() < 0.7:
        urgency_parts.append(f(pick_urgency_sentence(rng, intent, level, escalate, tags)))
    if level == 4 and rng.random() < 0.5:
        extra = f(pick_urgency_sentence(rng, intent, 4, escalate, tags))
        if extra not in urgency_parts:
            urgency_parts.append(extra)

    tone_parts = []
    upset = escalate
    if escalate:
        tone_parts.append(rng.choice(FRUSTRATION))
        if rng.random() < 0.3:
            tone_parts.append(rng.choice([s for s in FRUSTRATION if s != tone_parts[0]]))
        tone_parts.append(rng.choice(DEMANDS))
    else:
        r = rng.random()
        if mood != "calm" and r < 0.25:
            tone_parts.append(rng.choice(UPSET_NO_DEMAND))
            upset = True
        elif r < 0.6:
            tone_parts.append(f(rng.choice(PERSON_MENTIONS)))
            if rng.random() < 0.5:
                tone_parts.append(rng.choice(POLITE))
        elif rng.random() < 0.6:
            tone_parts.append(rng.choice(POLITE))

    noise_parts = [f(s) for s in rng.sample(NOISE, rng.choice([0, 0, 1, 1, 2]))]
    if intent != "shipping":
        noise_parts = [s for s in noise_parts if not s.startswith("Order number")]

    if messages:
        user1 = " ".join(parts_core)
        if rng.random() < 0.5:
            user1 = rng.choice(["Hi, ", "Hello. ", "Hey, "]) + user1
        turns = [user1, rng.choice(ASSISTANT_ACKS)]
        rest = urgency_parts + noise_parts
        if escalate and rng.random() < 0.6:
            # Frustration builds over a longer conversation.
            turns += [" ".join(rest) or "Any update?", rng.choice(ASSISTANT_FOLLOWUPS), " ".join(tone_parts)]
        else:
            turns.append(" ".join(rest + tone_parts) or "Any update?")
        roles = ["user", "assistant"]
        state = {"messages": [{"role": roles[i % 2], "content": t} for i, t in enumerate(turns)]}
        return state, sum(len(t) for t in turns)

    # Ticket form: the core comes first or after the consequence, tone usually last.
    middle = parts_core + urgency_parts if rng.random() < 0.75 else urgency_parts + parts_core
    if not escalate and tone_parts and rng.random() < 0.3:
        middle = tone_parts + middle
        tone_parts = []
    body_parts = []
    if rng.random() < 0.7:
        body_parts.append(rng.choice(GREETINGS))
    paragraph = " ".join(middle + tone_parts)
    body_parts.append(paragraph)
    if noise_parts:
        body_parts.append(" ".join(noise_parts))
    if rng.random() < 0.75:
        body_parts.append(f(rng.choice(SIGNOFFS)))
    body = "\n\n".join(body_parts)

    r = rng.random()
    if upset and r < 0.25:
        subject = rng.choice(UPSET_SUBJECTS)
    elif r < 0.3:
        subject = rng.choice(GENERIC_SUBJECTS)
    else:
        subject = rng.choice(SUBJECTS[intent])
    subject = f(subject)
    if level == 4 and rng.random() < 0.5:
        subject = rng.choice(URGENT_SUBJECT_PREFIX) + subject
    elif level <= 1 and rng.random() < 0.1:
        subject = "Not urgent: " + subject
    state = {"subject": subject, "body": body, "customer": customer(rng, intent, ctx)}
    return state, len(subject) + len(body)


def generate():
    rng = random.Random(SEED)
    rows = []
    intents = [INTENTS[i % len(INTENTS)] for i in range(COUNT)]
    rng.shuffle(intents)
    n_messages = round(COUNT * MESSAGES_SHARE)
    forms = [i < n_messages for i in range(COUNT)]
    rng.shuffle(forms)
    for i, (intent, messages) in enumerate(zip(intents, forms)):
        level = rng.choices(range(5), weights=URGENCY_WEIGHTS[intent])[0]
        cores = [c for c in CORES[intent] if level in c[1]]
        core = rng.choice(cores)
        escalate = core[2] != "calm" and rng.random() < ESCALATE_RATE
        for _ in range(100):
            ctx = make_context(rng, intent, level)
            state, length = build(rng, intent, level, escalate, core, ctx, messages)
            if MIN_CHARS <= length <= MAX_CHARS:
                break
        else:
            raise SystemExit(f"could not build ticket {i} within {MIN_CHARS}..{MAX_CHARS} chars")
        rows.append({
            "example_id": f"s-{i + 1:04d}",
            "state": state,
            "annotations": {
                "intent": {"answer": intent},
                "urgency": {"answer": level},
                "escalate": {"answer": escalate},
            },
        })
    return rows


def main():
    rows = generate()
    with open(OUT, "w", encoding="utf-8", newline="\n") as f:
        for row in rows:
            f.write(json.dumps(row, ensure_ascii=False) + "\n")
    print(f"wrote {len(rows)} examples to {OUT.relative_to(HERE.parent.parent)}")
    for q in ("intent", "urgency", "escalate"):
        counts = Counter(r["annotations"][q]["answer"] for r in rows)
        keys = sorted(counts, key=lambda k: (str(type(k)), k))
        print(f"{q:9s} " + "  ".join(f"{str(k).lower() if isinstance(k, bool) else k}={counts[k]}" for k in keys))
    forms = Counter("messages" if "messages" in r["state"] else "ticket" for r in rows)
    print(f"form      ticket={forms['ticket']}  messages={forms['messages']}")


if __name__ == "__main__":
    sys.exit(main())
