package dev.lunchrush.load.menu;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.random.RandomGenerator;

import dev.lunchrush.events.OrderItem;
import dev.lunchrush.events.OrderRequest;

/**
 * Realistic random orders for a menu: a few dishes, an address, and the kind of notes customers
 * write. A typical order serializes to about 1 KB, like the lesson's events.
 */
public final class SampleOrders {

    private static final String[] STREETS = {"Mill Lane", "Station Road", "Church Street", "Victoria Road",
        "Green Lane", "Manor Road", "Park Avenue", "Queen's Road", "High Street", "Chapel Close",
        "Orchard Way", "Riverside Walk"};

    private static final String[] TOWNS = {"Riverside, Cambridge CB1 2AB", "Old Town, Norwich NR2 4PL",
        "Westgate, Leeds LS1 3DF", "Harbour Quarter, Bristol BS1 5TR", "Northfield, York YO30 6HG"};

    private static final String[] NOTES = {
        "Please ring the bell twice, the first ring does not always work and the dog barks at the door.",
        "No peanuts or tree nuts at all please, one of us has a severe allergy and carries an EpiPen.",
        "Leave it on the bench by the blue door if nobody answers; the code for the gate is on the app.",
        "Extra napkins and chopsticks for four people please, we are eating in the office kitchen today.",
        "Mild please, not spicy, it is for the kids. Sauce on the side if that is possible at all.",
        "Call when you are downstairs, the intercom is broken and the lift is out of order again.",
        "Gluten free where you can. If a dish cannot be made gluten free please leave it out and refund.",
        "We are at the back of the building, entrance through the car park next to the bike racks.",
        "No cutlery needed, we have our own. Please do not add the plastic bag, we are trying to cut waste.",
        "It is a birthday lunch, if you could write happy birthday on the box that would be lovely, thanks!",
        "Vegetarian option for the second portion, and please keep the coriander away from everything.",
        "Deliver to reception on the ground floor, ask for the facilities desk and they will sign for it."};

    private static final String[] FLATS = {"Flat 4B", "Unit 12", "Second floor", "Studio 3", "Office 210",
        "Apartment 7", "Ground floor", "Suite 5"};

    private final Menu menu;
    private final RandomGenerator random;

    public SampleOrders(Menu menu, RandomGenerator random) {
        if (menu.kitchens().isEmpty()) {
            throw new IllegalArgumentException("the menu has no kitchens");
        }
        this.menu = menu;
        this.random = random;
    }

    public OrderRequest next() {
        Menu.Kitchen kitchen = menu.kitchens().get(random.nextInt(menu.kitchens().size()));
        int lines = 1 + random.nextInt(Math.min(4, kitchen.dishes().size()));
        Map<String, Integer> portions = new LinkedHashMap<>();
        for (int i = 0; i < lines; i++) {
            String dish = kitchen.dishes().get(random.nextInt(kitchen.dishes().size()));
            portions.merge(dish, 1 + random.nextInt(3), Integer::sum);
        }
        List<OrderItem> items = new ArrayList<>();
        portions.forEach((dish, quantity) -> items.add(new OrderItem(dish, quantity)));
        String address = FLATS[random.nextInt(FLATS.length)] + ", " + (1 + random.nextInt(180)) + " "
                + STREETS[random.nextInt(STREETS.length)] + ", " + TOWNS[random.nextInt(TOWNS.length)];
        StringBuilder notes = new StringBuilder();
        int sentences = 5 + random.nextInt(3);
        for (int i = 0; i < sentences; i++) {
            if (i > 0) {
                notes.append(' ');
            }
            notes.append(NOTES[random.nextInt(NOTES.length)]);
        }
        String customerId = "c-" + (1000 + random.nextInt(90_000));
        return new OrderRequest(kitchen.id(), customerId, items, address, notes.toString());
    }
}
